// A redis-server for one describe block, with the connections and node:http servers its tests
// open as replicas: started before the block, each closed and the server removed after it.
import { afterAll, beforeAll } from 'vitest'
import { connectRedis, type RedisConnection } from '../../src/redis/connection.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import type { Handler } from '../../src/service/http.js'
import { type RedisServer, startRedis } from './redis-server.js'

export type RedisHarness = {
  /** The redis-server of the block (after `beforeAll`). */
  redis(): RedisServer
  /** A connection, ready, closed after the block. */
  connect(timeoutMs?: number): Promise<RedisConnection>
  /** A node:http server over `site`, on a free loopback port, closed after the block. */
  serve(site: Handler): Promise<RunningServer>
}

export function useRedis(): RedisHarness {
  let server: RedisServer | undefined
  const connections: RedisConnection[] = []
  const servers: RunningServer[] = []
  beforeAll(async () => {
    server = await startRedis()
  })
  afterAll(async () => {
    for (const running of servers) await running.close()
    for (const connection of connections) await connection.close()
    await server?.remove()
  })
  return {
    redis() {
      if (server === undefined) throw new Error('useRedis: redis() is for tests, after beforeAll')
      return server
    },
    async connect(timeoutMs = 1000) {
      const connection = await connectRedis({ url: this.redis().url, timeoutMs })
      connections.push(connection)
      await new Promise<void>((resolve) => connection.onReady(resolve))
      return connection
    },
    async serve(site) {
      const running = await startServer({ app: site })
      servers.push(running)
      return running
    },
  }
}

import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { afterAll, expect, it } from 'vitest'
import type { Handler, Reply } from '../../src/service/http.js'
import { type Exchange, type RunningServer, startServer } from '../../src/node/server.js'

const servers: RunningServer[] = []
afterAll(() => Promise.all(servers.map((server) => server.close())))

// An answer the app works out over time (a snapshot or a seed of the control API, say) may be
// ready only after its client has gone. test/node/bodies.test.ts covers a client that leaves during
// a forced delay, which is noticed when it leaves; this one is noticed when the answer is ready.
it('reports a client that went away while the app worked out its answer once, with no status, and no error', async () => {
  let handed: () => void = () => {}
  const asked = new Promise<void>((resolve) => (handed = resolve))
  let answer: (reply: Reply) => void = () => {}
  const app: Handler = {
    handle: () => {
      handed()
      return new Promise<Reply>((resolve) => (answer = resolve))
    },
  }
  const exchanges: Exchange[] = []
  let reported: () => void = () => {}
  const firstReport = new Promise<void>((resolve) => (reported = resolve))
  const onExchange = (exchange: Exchange) => {
    exchanges.push(exchange)
    reported()
  }
  const errors: unknown[] = []
  const server = await startServer({ app, onExchange, onError: (error) => errors.push(error) })
  servers.push(server)
  const closed = new Promise<void>((resolve) => server.server.once('connection', (socket: Socket) => socket.once('close', () => resolve())))

  const { port } = new URL(server.url)
  const client = connect(Number(port), '127.0.0.1')
  await once(client, 'connect')
  client.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  await asked
  client.destroy()
  await closed
  expect(exchanges).toEqual([])

  answer({ status: 200, headers: { 'content-type': 'application/json' }, body: '[]' })
  await firstReport
  // Anything more would come in the same turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve))
  expect(exchanges.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'GET', path: '/v1/pets', status: null }])
  expect(errors).toEqual([])
})

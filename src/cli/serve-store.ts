import { readControlOpenApiText } from '../contracts/openapi-files.js'
import { connectRedis, type RedisConnection, RedisUnavailable } from '../redis/connection.js'
import { createRedisApi, type RedisApi } from '../redis/redis-api.js'
import { storeUnavailable } from '../redis/redis-responder.js'
import { createRedisControl } from '../redis/redis-control.js'
import { generateLazily } from '../seed/generate-lazily.js'
import { nextTurn } from '../fake/next-turn.js'
import { DEFAULT_PREFIX } from '../redis/redis-animals.js'
import { createKeyPolicy } from '../service/auth.js'
import { orThrow, toErrorResponse } from '../service/errors.js'
import { parseLatency } from '../fake/latency.js'
import { definedOnly } from '../service/defined-only.js'
import { TENANT_LIMITS } from '../fake/tenants.js'
import { JSON_HEADERS } from '../service/http.js'
import { createPages } from '../site/pages.js'
import { createSite, type Page } from '../site/site.js'
import { createHostPolicy } from '../site/site-guard.js'
import { CliError } from './cli-error.js'
import type { ServeConfig, StoreConfig } from './serve-options.js'
import { loadPets, type Running } from './served.js'

/** How often a replica asks again for a store that is not there yet at start. */
const START_RETRY_MS = 500

/**
 * `serve --store redis://…`: the API over a store in Redis that every replica started with the same
 * URL shares. The first replica ever to start loads the fixture; the others find the store as it
 * is. While Redis cannot be reached at start, the replica waits, saying so once; once serving, a
 * request Redis does not answer in time gets 503, and /healthz says which. Under --isolate each
 * key's store is made on its first request, through whichever replica.
 */
export async function onStore(config: ServeConfig, store: StoreConfig): Promise<Running> {
  const pets = await loadPets(config)
  let connection: RedisConnection
  try {
    connection = await connectRedis({ url: store.url, timeoutMs: store.timeoutMs })
  } catch (error) {
    throw new CliError((error as Error).message)
  }
  const keys = createKeyPolicy(config.keys)
  const isolate = store.secret === undefined ? undefined : { secret: store.secret, maxStores: TENANT_LIMITS.maxTenants, idleMs: config.storeIdleMs, now: Date.now }
  // --latency is where every replica given it starts; the control API's latency, kept in Redis, replaces it.
  const latency = config.latency === undefined ? undefined : { latency: orThrow(parseLatency(config.latency)), random: Math.random }
  const api = createRedisApi({ connection, prefix: DEFAULT_PREFIX, keys, maxAnimals: config.maxAnimals, prefer: config.prefer, fixture: pets, journalSize: config.journalSize, ...definedOnly({ isolate, latency }) })
  try {
    const loaded = await startStore(api, connection.where)
    const control = config.control ? createRedisControl({ api, keys, maxAnimals: config.maxAnimals, generate: generateLazily, random: Math.random, pause: nextTurn, document: readControlOpenApiText(), ...definedOnly({ token: config.controlToken }) }) : undefined
    // The dashboard reads the control API, the same through every replica.
    const pages = createPages({ keys, control: control === undefined ? 'off' : config.controlToken === undefined ? 'open' : 'token', health: storeHealth(api, connection.where) })
    const site = createSite({ api, pages, hosts: createHostPolicy(config.allowedHosts), controlCorsOrigins: config.controlCors, ...definedOnly({ control }) })
    // Under isolation the banner tells what each key's store starts from, as in memory.
    const from = isolate !== undefined ? `fixture ${config.fixture}` : loaded ? `fixture ${config.fixture}, loaded into a new store` : 'the store as the replicas left it'
    const animals = isolate !== undefined ? pets.length : await api.store.size()
    return { site, ...definedOnly({ control }), keys, animals, from, store: connection.where, finish: () => connection.close() }
  } catch (error) {
    await connection.close()
    throw error
  }
}

/** Loads the fixture if no replica did (true then), waiting for Redis while it cannot be reached. */
async function startStore(api: RedisApi, where: string): Promise<boolean> {
  for (let said = false; ; said = true) {
    const started = await api.start()
    if (started.ok) return started.value
    if (started.error.code !== 'store_unavailable') throw new CliError(`--store ${where}: ${started.error.message}`)
    if (!said) process.stderr.write(`animals-mock: waiting for the store at ${where}: ${started.error.message}\n`)
    await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS))
  }
}

/** /healthz: 200 naming the store when it answers, 503 `store_unavailable` when it does not. */
function storeHealth(api: RedisApi, where: string): Page {
  return async () => {
    try {
      return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ status: 'ok', store: where, ...(await api.counts()) }) }
    } catch (error) {
      if (error instanceof RedisUnavailable) return toErrorResponse(storeUnavailable(error))
      throw error
    }
  }
}

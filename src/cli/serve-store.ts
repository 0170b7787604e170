import { createFakeCore } from '../fake/fake-core.js'
import { parseLatency } from '../fake/latency.js'
import { nextTurn } from '../fake/next-turn.js'
import { storeUnavailable } from '../fake/refusals.js'
import { TENANT_LIMITS } from '../fake/tenancy.js'
import { connectRedis, type RedisConnection } from '../redis/connection.js'
import { DEFAULT_PREFIX } from '../redis/keys.js'
import { createRedisStore, type RedisStore } from '../redis/redis-store.js'
import { generateLazily } from '../seed/generate-lazily.js'
import { DEFAULT_BUDGET_LIMITS } from '../service/budget.js'
import { definedOnly } from '../service/defined-only.js'
import { orThrow, toErrorResponse } from '../service/errors.js'
import { JSON_HEADERS } from '../service/http.js'
import { StoreUnavailable } from '../store/port.js'
import type { Page } from '../site/site.js'
import { CliError } from './cli-error.js'
import type { ServeConfig, StoreConfig } from './serve-options.js'
import { loadPets, type Running, siteOver } from './served.js'

/** How often a replica asks again for a store that is not there yet at start. */
const START_RETRY_MS = 500

/**
 * `serve --store redis://…`: the one fake over the store port's Redis adapter, shared by every
 * replica started with the same URL. The first replica ever to start loads the fixture; the others
 * find the store as it is. While Redis cannot be reached at start, the replica waits, saying so
 * once; once serving, a request Redis cannot serve in time gets 503, and /healthz says which.
 * Under --isolate each key's store is made on its first request, through whichever replica.
 */
export async function onStore(config: ServeConfig, store: StoreConfig): Promise<Running> {
  const pets = await loadPets(config)
  // Two connections: one for requests, the forced rules, the journal's entries and /healthz, one
  // for the control reads that copy many animals or entries at a time, which would hold up the first.
  const connect = () => connectRedis({ url: store.url, timeoutMs: store.timeoutMs })
  let connections: [RedisConnection, RedisConnection]
  try {
    connections = await Promise.all([connect(), connect()])
  } catch (error) {
    throw new CliError((error as Error).message)
  }
  const [connection, reads] = connections
  const close = async (): Promise<void> => void (await Promise.all([connection.close(), reads.close()]))
  const limits = { ...DEFAULT_BUDGET_LIMITS, maxAnimals: config.maxAnimals }
  const isolate = store.secret === undefined ? undefined : { secret: store.secret, idleMs: config.storeIdleMs }
  try {
    const onLost = (message: string): void => void process.stderr.write(`animals-mock: ${message}\n`)
    const redis = await createRedisStore({ call: connection, reads, prefix: DEFAULT_PREFIX, fixture: pets, limits, journalSize: config.journalSize, maxScopes: TENANT_LIMITS.maxTenants + 1, now: Date.now, onLost, ...definedOnly({ isolate }) })
    // --latency is where every replica given it starts; the control API's latency, kept in Redis, replaces it.
    const latency = config.latency === undefined ? undefined : orThrow(parseLatency(config.latency))
    const core = createFakeCore(redis, { keys: config.keys, isolate: isolate !== undefined, prefer: config.prefer, limits, idleMs: config.storeIdleMs, deadlineMs: store.timeoutMs, ...definedOnly({ latency }) }, { now: Date.now, random: Math.random, generate: generateLazily, pause: nextTurn })
    const { loaded, animals } = await startStore(redis, connection, isolate === undefined ? undefined : pets.length)
    const { site, control } = siteOver(core, config, { health: storeHealth(redis, connection.where) })
    // Under isolation the banner tells what each key's store starts from, as in memory.
    const from = isolate !== undefined ? `fixture ${config.fixture}` : loaded ? `fixture ${config.fixture}, loaded into a new store` : 'the store as the replicas left it'
    return { site, ...definedOnly({ control }), keys: core.keys, animals, from, store: connection.where, finish: close }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * Loads the fixture if no replica did (`loaded` then), and tells how many animals the banner
 * shows (`fixture`'s under isolation, where each key's store starts from it; else every store's),
 * waiting for Redis while it cannot be reached (saying why, once, and again when the reason
 * changes). A refusal no wait can mend (a wrong password, no such database) stops the start, naming it.
 */
async function startStore(store: RedisStore, connection: RedisConnection, fixture: number | undefined): Promise<{ loaded: boolean; animals: number }> {
  const { where } = connection
  // Once started, a wait for the count does not start it again (which would find it loaded).
  let loaded: boolean | undefined
  for (let said = ''; ; ) {
    try {
      if (loaded === undefined) {
        const started = await store.start()
        if (!started.ok) throw new CliError(`--store ${where}: the fixture does not fit --max-animals (every store together holds ${started.error.held.animals})`)
        loaded = started.value
      }
      return { loaded, animals: fixture ?? (await store.animals.held()).animals }
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error
      const problem = connection.problem()
      if (problem?.lasting === true) throw new CliError(`--store ${where}: ${problem.reason}`)
      const why = problem?.reason ?? error.message
      if (why !== said) process.stderr.write(`animals-mock: waiting for the store at ${where}: ${why}\n`)
      said = why
    }
    await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS))
  }
}

/**
 * /healthz: 200 naming the store when it answers and takes writes (with `dataLostAt` once this
 * replica found the store's data gone and had it loaded again), 503 `store_unavailable` with the
 * reason when it does not: unreachable, loading, refusing writes, or its data gone.
 */
function storeHealth(store: RedisStore, where: string): Page {
  return async () => {
    try {
      const { lostAt, ...health } = await store.health()
      const lost = lostAt === undefined ? {} : { dataLostAt: new Date(lostAt).toISOString() }
      return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ status: 'ok', store: where, ...health, ...lost }) }
    } catch (error) {
      if (error instanceof StoreUnavailable) return toErrorResponse(storeUnavailable(error))
      throw error
    }
  }
}

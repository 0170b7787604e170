import { randomUUID } from 'node:crypto'
import { ok, type Result } from '../service/http.js'
import { type NoRoom, StoreUnavailable } from '../store/port.js'
import type { RedisCall } from './connection.js'

/**
 * What a replica says when it finds the store's data gone from Redis (`FLUSHDB`, a failover to a
 * replica without it, a restart without persistence), and does: as at a first start.
 */
export const DATA_LOST = "The store's data is gone from Redis (emptied, or a failover to a Redis without it): the first replica to see it loads the fixture again, as at a first start, and ids start again after the fixture's."

/** What a replica says when it finds the data loaded again by another replica since it last looked. */
export const DATA_RELOADED = "The store's data was loaded again by another replica, which found it gone from Redis: this replica serves it from now."

/** How long a replica's claim to load the fixture holds: past it, a replica that died loading it leaves it to the next. */
const LOAD_CLAIM_MS = 60_000

/** What the started key holds while a replica loads the fixture; once loaded, the epoch of the data. */
const LOADING = 'loading'

/** Options of `dataEpoch`. */
export type EpochOptions = {
  readonly call: RedisCall
  /** The key of the epoch (`SharedKeys.started`). */
  readonly key: string
  /** Loads the fixture into an empty Redis (the shared store's; nothing under isolation); true when it loaded animals. */
  readonly loadFixture: () => Promise<Result<boolean, NoRoom>>
  /** Forgets what this replica remembers of the data: which stores are in use, each scope's rules. */
  readonly forget: () => void
  readonly now: () => number
  readonly onLost?: (message: string) => void
}

/** The epoch of the data a replica serves, and what it does when it meets another. */
export type DataEpoch = {
  /** The epoch this replica serves ('' before `load`). */
  current(): string
  /** Loads the fixture unless a replica did (true then); rejects with `StoreUnavailable` while another replica loads it. */
  load(): Promise<Result<boolean, NoRoom>>
  /**
   * What to do when Redis holds `found` (`null`: nothing) where this replica expected its epoch:
   * another replica's newer epoch is adopted, and told (`onLost`: the data this replica served
   * went); no epoch, or one being loaded, means the data went: it is told once, loaded again by
   * whichever replica claims it, and answered as `StoreUnavailable` meanwhile.
   */
  met(found: string | null): 'adopted' | StoreUnavailable
  /** When this replica last found the data gone (ms), if ever. */
  lostAt(): number | undefined
}

/**
 * The data's epoch in Redis: the value of one key, made anew each time a replica loads the fixture
 * into an empty Redis (`loading:…` while it does, claimed with `SET NX` so one replica loads it).
 * Every request's step compares it with the replica's, so a replica notices at its next request
 * that the data went, or that another replica loaded it again.
 */
export function dataEpoch(options: EpochOptions): DataEpoch {
  const { call, key, now } = options
  let epoch = ''
  let lostAt: number | undefined
  let reloading: Promise<unknown> | undefined
  const adopt = (found: string): void => {
    epoch = found
    options.forget()
  }
  async function load(): Promise<Result<boolean, NoRoom>> {
    if ((await call.command(['SET', key, `${LOADING}:${randomUUID()}`, 'NX', 'PX', String(LOAD_CLAIM_MS)])) === null) {
      const found = (await call.command(['GET', key])) as string | null
      if (found === null || found.startsWith(LOADING)) throw new StoreUnavailable('Another replica is loading the fixture into the store.')
      adopt(found)
      return ok(false)
    }
    const loaded = await options.loadFixture()
    if (!loaded.ok) {
      await call.command(['DEL', key])
      return loaded
    }
    const made = randomUUID()
    await call.command(['SET', key, made])
    adopt(made)
    return loaded
  }
  return {
    current: () => epoch,
    load,
    met(found) {
      if (found !== null && !found.startsWith(LOADING)) {
        // Unless it is this replica's own first look, the data it served went meanwhile.
        if (epoch !== '' && reloading === undefined) {
          lostAt = now()
          options.onLost?.(DATA_RELOADED)
        }
        adopt(found)
        return 'adopted'
      }
      if (reloading === undefined) {
        lostAt = now()
        options.onLost?.(DATA_LOST)
        reloading = load()
          .catch(() => undefined)
          .finally(() => {
            reloading = undefined
          })
      }
      return new StoreUnavailable(DATA_LOST)
    },
    lostAt: () => lostAt,
  }
}

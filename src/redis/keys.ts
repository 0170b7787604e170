import { type Int64, PET_STATUSES } from '../spec/animals-service.js'

/** Where every key of animals-mock starts, unless `--store`'s URL names another. */
export const DEFAULT_PREFIX = 'animals-mock:'

/**
 * The keys of one store (`label`) and of the scope of the same name, under `prefix`; a store's and
 * a scope's keys share the hash tag `{<label>}`. The layout (`docs/deploy.md`):
 *
 * - `animal`, a hash of each animal's JSON text by its member (`memberOf`);
 * - `order`, and `status:<status>` for each PetStatus, sorted sets of the members, every score 0, so
 *   that Redis orders them by their text: a member is written so that its text orders as its id;
 * - `last`, the last id handed out; `chars`, the characters of the animals' texts the store holds;
 * - `data`, moved on by every load of the store (fixture, snapshot, reset), to the next value of
 *   `dataClock`: with `last`, which every creation moves on, the revision a replica's kept list
 *   answers are checked against;
 * - `rules`, a hash of each forced rule by id, `left`, what each rule with `times` has left,
 *   `latency`, the scope's latency, and `version`, moved on by every change of the three.
 */
export function storeKeys(prefix: string, label: string) {
  const base = `${prefix}{${label}}:`
  return {
    animal: `${base}animal`,
    order: `${base}order`,
    status: (status: string) => `${base}status:${status}`,
    last: `${base}last`,
    chars: `${base}chars`,
    data: `${base}data`,
    rules: `${base}rules`,
    left: `${base}left`,
    latency: `${base}latency`,
    version: `${base}version`,
    loading: (token: string) => `${base}loading:${token}:`,
  }
}

/** The keys of one store and scope. */
export type StoreKeys = ReturnType<typeof storeKeys>

/** A store's sets: its animals, their order, and each status's, in PET_STATUSES' order. */
export function setsOf(keys: StoreKeys): string[] {
  return [keys.animal, keys.order, ...PET_STATUSES.map(keys.status)]
}

/** The keys every store shares under `prefix`: the budget's counts, the stores of keys, the rules' ids and count, the journal's. */
export function sharedKeys(prefix: string) {
  return {
    /** How many animals every store holds together, and the characters of their texts. */
    animals: `${prefix}animals`,
    chars: `${prefix}chars`,
    /** The labels of the stores of keys in use (`--isolate`), scored by each one's last use (ms). */
    stores: `${prefix}stores`,
    /**
     * The epoch of the data: set by the first replica to start, once it has loaded the fixture
     * (`loading:…` meanwhile), and again whenever a replica finds the data gone and loads it again.
     */
    started: `${prefix}started`,
    /** What every load of a store draws its `data` from, so that no store's `data` is ever seen twice. */
    dataClock: `${prefix}data:clock`,
    /** What `/healthz` writes, to know that Redis takes writes. */
    health: `${prefix}health`,
    ruleIds: `${prefix}rules:last`,
    /** What every change of any scope draws its new version from, so that no version is ever seen twice. */
    ruleClock: `${prefix}rules:clock`,
    ruleCount: `${prefix}rules:count`,
    /** The scopes that have rules or a latency. */
    scopes: `${prefix}rules:scopes`,
    journalSeq: `${prefix}journal:seq`,
    /** Above every journal seq handed out: the one journal key Redis's append-only file holds. */
    journalCeiling: `${prefix}journal:ceiling`,
    /** The run id of the Redis that handed out `journalSeq`: another one, and seq goes on from the ceiling. */
    journalRun: `${prefix}journal:run`,
    journalBytes: `${prefix}journal:bytes`,
    journalWeights: `${prefix}journal:weights`,
    /** Where each scope's journal list is: this, then `{<scope>}`. */
    journalLists: `${prefix}journal:`,
    journal: (scope: string) => `${prefix}journal:{${scope}}`,
  }
}

/** The keys every store shares. */
export type SharedKeys = ReturnType<typeof sharedKeys>

/** How many digits an int64's magnitude has at most: 2^63 = 9223372036854775808. */
const DIGITS = 19

/**
 * An id as a store's sorted sets hold it: text that orders as the id does. A positive id is `p`
 * and its digits padded to 19; a negative one `n` and the nines' complement of its padded
 * magnitude, so that the larger magnitude comes first. Exact for every int64, where a score (a
 * double) would tie past 2^53.
 * @example memberOf(7) // 'p0000000000000000007'
 */
export function memberOf(id: Int64): string {
  const text = String(id)
  if (!text.startsWith('-')) return `p${text.padStart(DIGITS, '0')}`
  return `n${[...text.slice(1).padStart(DIGITS, '0')].map((digit) => String(9 - Number(digit))).join('')}`
}

/** The Lua that makes a member of a new id, Redis's integer text of it, which is never negative. */
export const LUA_MEMBER_OF = `local function member_of(id) return 'p' .. string.rep('0', ${DIGITS} - #id) .. id end`

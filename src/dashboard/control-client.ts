import type { ForcedRule, ForcedRuleSpec } from '../store/scope.js'
import type { JournalEntry } from '../store/journal-entry.js'
import type { LatencySpec } from '../fake/latency.js'
import type { PetStatus } from '../spec/animals-service.js'

/** An animal as the control API sends it; ids past 2^53 lose precision in the browser. */
export type WirePet = { readonly id: number; readonly name: string; readonly categoryId: number; readonly status?: PetStatus }

/** How many animals have each status, and how many have none. */
export type Counts = Readonly<Record<PetStatus | 'none', number>>

/** `GET /__control/animals`: a page of the store with counts. */
export type AnimalsPage = {
  readonly total: number
  readonly offset: number
  readonly limit: number
  readonly counts: Counts
  readonly animals: readonly WirePet[]
  /** With a name: how many animals were read, and whether that was all of them. */
  readonly scanned?: number
  readonly complete?: boolean
}

/** Which page of animals to read: from an offset or from an id, of one status, or those with a name. */
export type AnimalsQuery = {
  readonly offset: number
  readonly limit: number
  readonly status?: PetStatus | undefined
  readonly from?: number | undefined
  readonly name?: string | undefined
}

/**
 * Which requests of the journal to read: after `since` (the `next` of the page before), or without
 * it the most recent; `limit` to a page.
 */
export type JournalQuery = {
  readonly since?: number | undefined
  readonly limit: number
  readonly method?: string | undefined
  readonly status?: number | undefined
  readonly path?: string | undefined
}

/** A page of the journal: its entries, oldest first, the `since` that reads on, and whether more wait. */
export type JournalPageRead = { readonly entries: readonly JournalEntry[]; readonly next: number; readonly more: boolean }

/** `GET /__control/stores`: the stores by label, never by key. */
export type StoresList = {
  readonly isolated: boolean
  readonly stores: readonly { readonly label: string; readonly animals: number; readonly counts: Counts }[]
}

export type { ForcedRule, ForcedRuleSpec, JournalEntry, LatencySpec }

/** A control call that did not succeed; `status` 401 means the control token is missing or wrong. */
export class ControlError extends Error {
  override readonly name = 'ControlError'
  readonly status: number

  constructor(message: string, status: number) {
    super(message)
    this.status = status
  }
}

/** Options of `createControlClient`: where the token and the chosen store come from. */
export type ControlClientOptions = {
  /** The control token, when the fake requires one. */
  readonly token: () => string | undefined
  /** The label of the store to act on under isolation; every store when undefined. */
  readonly store: () => string | undefined
}

/** The control API as the dashboard uses it; nothing else is called. */
export type ControlClient = {
  animals(query: AnimalsQuery): Promise<AnimalsPage>
  stores(): Promise<StoresList>
  journal(query: JournalQuery): Promise<JournalPageRead>
  forced(): Promise<readonly ForcedRule[]>
  latency(): Promise<LatencySpec>
  reset(): Promise<void>
  seed(count: number): Promise<{ readonly added: number }>
  clearJournal(): Promise<void>
  clearForced(): Promise<void>
  removeForced(id: number): Promise<void>
  force(spec: ForcedRuleSpec): Promise<ForcedRule>
  setLatency(spec: LatencySpec): Promise<void>
}

const CONTROL_BASE = '/__control'

type CallExtra = { readonly query?: Record<string, string>; readonly body?: unknown; readonly scoped?: boolean }

/**
 * Creates the client; every call names the chosen store and sends the secret given, as the control
 * token, or as an API key once the fake has asked for one (a 401 with `WWW-Authenticate: Bearer`,
 * when it runs with --api-key and no control token). State-changing calls always send
 * `Content-Type: application/json`: the control API refuses them otherwise.
 */
export function createControlClient(options: ControlClientOptions): ControlClient {
  let wantsKey = false
  async function call<T>(method: string, path: string, extra: CallExtra = {}): Promise<T> {
    const { query = {}, body, scoped = true } = extra
    const params = new URLSearchParams(query)
    const store = scoped ? options.store() : undefined
    if (store !== undefined) params.set('store', store)
    const headers: Record<string, string> = {}
    const secret = options.token()
    if (secret !== undefined) {
      if (wantsKey) headers.authorization = `Bearer ${secret}`
      else headers['x-control-token'] = secret
    }
    const init: RequestInit = { method, headers }
    if (method !== 'GET') headers['content-type'] = 'application/json'
    if (body !== undefined) init.body = JSON.stringify(body)
    const search = params.toString()
    const response = await fetch(`${CONTROL_BASE}${path}${search === '' ? '' : `?${search}`}`, init)
    if (response.status === 401 && response.headers.has('www-authenticate')) wantsKey = true
    const text = await response.text()
    const value: unknown = text === '' ? undefined : JSON.parse(text)
    if (!response.ok) throw new ControlError(messageOf(value, response.status), response.status)
    // The control API's own answers: their shapes are its contract (contracts/control.openapi.yaml).
    return value as T
  }
  return {
    animals: (query) => call('GET', '/animals', { query: asParams(query) }),
    // The list of stores is the same for every store, and must not fail when the chosen one is gone.
    stores: () => call('GET', '/stores', { scoped: false }),
    journal: (query) => call('GET', '/journal', { query: asParams(query) }),
    forced: async () => (await call<{ rules: ForcedRule[] }>('GET', '/forced')).rules,
    latency: () => call('GET', '/latency'),
    reset: () => call('POST', '/reset'),
    seed: (count) => call('POST', '/seed', { body: { count } }),
    clearJournal: () => call('DELETE', '/journal'),
    clearForced: () => call('DELETE', '/forced'),
    removeForced: (id) => call('DELETE', `/forced/${id}`),
    force: (spec) => call('POST', '/forced', { body: spec }),
    setLatency: (spec) => call('PUT', '/latency', { body: spec }),
  }
}

/** Query parameters from the fields that are set. */
function asParams(fields: Readonly<Record<string, string | number | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])))
}

function messageOf(value: unknown, status: number): string {
  if (typeof value === 'object' && value !== null && 'message' in value && typeof value.message === 'string') return value.message
  return `The control API answered ${status}.`
}

import { createdReply, createFoundHeaders, createListQueryCache, foundReply, heldTo, listedReply, type Operation, type Outcome, planOperation, preferredOutcome, type Route } from '../fake/app.js'
import { pickDelay } from '../fake/latency.js'
import { authenticate, type KeyPolicy } from '../service/auth.js'
import { type ApiError, apiError, toErrorResponse } from '../service/errors.js'
import type { Fields, PlainRequest, PlainResponse, Reply, Result } from '../service/http.js'
import { RedisUnavailable } from './connection.js'
import type { RedisAnimals } from './redis-animals.js'
import { type RedisScopes, type ScopesState, StaleScopes } from './redis-scopes.js'

/** A request's own `Prefer`, which comes before every forced rule: the success status its answer is held to, if any. */
type Preferred = { readonly heldTo?: number }

/** How many times a request starts again on rules that changed meanwhile before it answers 503. */
export const MAX_TRIES = 5

/** What `createResponder` answers with. */
export type ResponderOptions = {
  readonly keys: KeyPolicy
  /** Whether `Prefer: code=NNN` chooses a request's answer. */
  readonly prefer: boolean
  readonly scopes: RedisScopes
  /** The store of an accepted key: the shared one, or under isolation the key's own. */
  readonly storeFor: (token: string) => Promise<Result<RedisAnimals, ApiError>>
  /** Picks a delay within a latency range. */
  readonly random: () => number
  /** The scope of the requests no store took: the shared store's, or under isolation every store's. */
  readonly unclaimed: string
}

/**
 * Answers one API request over Redis, in the in-memory fake's order: the key, the key's store,
 * the request's own Prefer, its store's forced rules and then every store's, then the operation,
 * held back by a forced delay and the store's latency. Every step after the key acts at the
 * version of the rules the request was matched against, and the request starts again when it moved.
 */
export function createResponder(options: ResponderOptions): (route: Route | undefined, request: PlainRequest) => Answered | Promise<Answered> {
  const { keys, scopes, storeFor, random } = options
  const foundHeadersFor = createFoundHeaders()
  const listQuery = createListQueryCache()

  // `work` at the rules and latencies as they are: started again on those read afresh while they change under it, at most MAX_TRIES times.
  async function fresh<T>(work: (state: ScopesState) => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries += 1) {
      const state = await scopes.current()
      try {
        return await work(state)
      } catch (error) {
        if (!(error instanceof StaleScopes) || tries === MAX_TRIES) throw error
        scopes.stale(state)
      }
    }
  }

  // A request no store took is held back by the latency of every store (the shared one's without isolation); by none while Redis cannot say.
  async function unclaimed(reply: PlainResponse): Promise<Answered> {
    try {
      return await fresh(async (state) => {
        await scopes.check(state)
        return answered(withDelay(reply, 0, pickDelay(scopes.latencyOf(state, options.unclaimed), random)), null)
      })
    } catch (error) {
      if (error instanceof RedisUnavailable || error instanceof StaleScopes) return answered(reply, null)
      throw error
    }
  }

  async function perform(operation: Operation, request: PlainRequest, token: string, preferred: Preferred | undefined): Promise<Answered> {
    let label: string | null = null
    try {
      // A key's store is found (or made) first, as the in-memory fake does: its refusal comes before any other answer.
      const found = await storeFor(token)
      if (!found.ok) return unclaimed(toErrorResponse(found.error))
      label = found.value.label
      const store = found.value
      return { ...(await fresh((state) => performAt(state, operation, request, store, preferred))), label: store.label }
    } catch (error) {
      if (error instanceof RedisUnavailable) return answered(toErrorResponse(storeUnavailable(error)), label)
      if (error instanceof StaleScopes) return answered(toErrorResponse(apiError('store_unavailable', `${error.message} It changed ${MAX_TRIES} times in a row: try again.`, { 'retry-after': '1' })), label)
      throw error
    }
  }

  // One try at the forced rules and latencies of `state`: a request's own Prefer first, then its store's rules and every store's, then the operation.
  async function performAt(state: ScopesState, operation: Operation, request: PlainRequest, store: RedisAnimals, preferred: Preferred | undefined): Promise<Omit<Answered, 'label'>> {
    const latencyMs = pickDelay(scopes.latencyOf(state, store.label), random)
    const taken = preferred === undefined ? await scopes.take(state, store.label, request) : undefined
    const effect = taken?.effect
    if (effect?.kind === 'respond') return { reply: withDelay(effect.response, effect.response.delayMs, latencyMs), outcome: 'forced' }
    if (effect?.kind === 'drop') return { reply: withDelay(effect.reply, effect.reply.delayMs, latencyMs), outcome: 'dropped' }
    // A rule taken checked the version already, and says the version it left (moved on when the rule ran out).
    const response = await operate(operation, request, store, scopes, taken === undefined ? state : undefined, taken?.version ?? state.version, foundHeadersFor(request.basePath))
    const reply = withDelay(preferred?.heldTo === undefined ? response : heldTo(preferred.heldTo, response), effect?.delayMs ?? 0, latencyMs)
    return { reply, outcome: preferred !== undefined ? 'prefer' : effect !== undefined ? 'delayed' : 'answered' }
  }

  return function respond(route, request) {
    const auth = authenticate(request.headers.authorization, keys)
    if (!auth.ok) return unclaimed(toErrorResponse(auth.error))
    const preferred = options.prefer ? preferredOutcome(request) : undefined
    // Under isolation the key's store comes first, as in memory: a key refused a store gets that refusal.
    if (preferred?.kind === 'reply') return perform({ kind: 'answer', response: preferred.reply }, request, auth.value, {})
    return perform(planOperation(route, request, listQuery), request, auth.value, preferred && { heldTo: preferred.status })
  }
}

/** What became of one request, for the journal: its reply, who chose it, and the label of the store that answered (null: none). */
export type Answered = { readonly reply: Reply; readonly outcome: Outcome; readonly label: string | null }

/** The API's own answer. */
function answered(reply: Reply, label: string | null): Answered {
  return { reply, outcome: 'answered', label }
}

/**
 * Performs an operation on a store at `version` of the forced rules (an answer already: after
 * checking `unchecked`, the state its rules were matched at, unless a rule taken checked it).
 */
async function operate(operation: Operation, request: PlainRequest, store: RedisAnimals, scopes: RedisScopes, unchecked: ScopesState | undefined, version: string, foundHeaders: Fields): Promise<PlainResponse> {
  switch (operation.kind) {
    case 'answer':
      if (unchecked !== undefined) await scopes.check(unchecked)
      return operation.response
    case 'list':
      return listedReply(await store.listJson(operation.query.limit, operation.query.status, version))
    case 'get':
      return foundReply(operation.id, await store.get(operation.id, version), foundHeaders)
    case 'create': {
      const created = await store.create(operation.newPet, version)
      return created.ok ? createdReply(created.value.id, created.value.json, request.basePath) : toErrorResponse(created.error)
    }
  }
}

/** A reply held back by a forced rule's delay and the scope's latency together, as in memory. */
function withDelay(reply: Reply, ruleMs: number | undefined, latencyMs: number): Reply {
  const delayMs = (ruleMs ?? 0) + latencyMs
  return delayMs === 0 && reply.delayMs === undefined ? reply : { ...reply, delayMs }
}

/** The 503 of a request whose store did not answer. */
export function storeUnavailable(error: RedisUnavailable): ApiError {
  return apiError('store_unavailable', `${error.message} Try again: a creation that got this answer may or may not have been stored.`, { 'retry-after': '1' })
}

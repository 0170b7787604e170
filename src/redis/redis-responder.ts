import { createdReply, createFoundHeaders, createListQueryCache, foundReply, heldTo, listedReply, type Operation, planOperation, preferredOutcome, type Route } from '../fake/app.js'
import { pickDelay } from '../fake/latency.js'
import { authenticate, type KeyPolicy } from '../service/auth.js'
import { type ApiError, apiError, toErrorResponse } from '../service/errors.js'
import type { PlainRequest, PlainResponse, Reply, Result } from '../service/http.js'
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
}

/**
 * Answers one API request over Redis, in the in-memory fake's order: the key, the key's store,
 * the request's own Prefer, its store's forced rules and then every store's, then the operation,
 * held back by a forced delay and the store's latency. Every step after the key acts at the
 * version of the rules the request was matched against, and the request starts again when it moved.
 */
export function createResponder(options: ResponderOptions): (route: Route | undefined, request: PlainRequest) => PlainResponse | Promise<Reply> {
  const { keys, scopes, storeFor, random } = options
  const foundHeadersFor = createFoundHeaders()
  const listQuery = createListQueryCache()

async function perform(operation: Operation, request: PlainRequest, token: string, preferred: Preferred | undefined): Promise<Reply> {
  try {
    // A key's store is found (or made) first, as the in-memory fake does: its refusal comes before any other answer.
    const found = await storeFor(token)
    if (!found.ok) return toErrorResponse(found.error)
    for (let tries = 1; ; tries += 1) {
      const state = await scopes.current()
      try {
        return await performAt(state, operation, request, found.value, preferred)
      } catch (error) {
        if (!(error instanceof StaleScopes) || tries === MAX_TRIES) throw error
        scopes.stale(state)
      }
    }
  } catch (error) {
    if (error instanceof RedisUnavailable) return toErrorResponse(storeUnavailable(error))
    if (error instanceof StaleScopes) return toErrorResponse(apiError('store_unavailable', `${error.message} It changed ${MAX_TRIES} times in a row: try again.`, { 'retry-after': '1' }))
    throw error
  }
}

// One try at the forced rules and latencies of `state`: a request's own Prefer first, then its store's rules and every store's, then the operation.
async function performAt(state: ScopesState, operation: Operation, request: PlainRequest, store: RedisAnimals, preferred: Preferred | undefined): Promise<Reply> {
  const latencyMs = pickDelay(scopes.latencyOf(state, store.label), random)
  const taken = preferred === undefined ? await scopes.take(state, store.label, request) : undefined
  const effect = taken?.effect
  if (effect?.kind === 'respond') return withDelay(effect.response, effect.response.delayMs, latencyMs)
  if (effect?.kind === 'drop') return withDelay(effect.reply, effect.reply.delayMs, latencyMs)
  // A rule taken checked the version already, and says the version it left (moved on when the rule ran out).
  const version = taken?.version ?? state.version
  const response = await operate(operation, request, store, taken === undefined ? state : undefined, version)
  return withDelay(preferred?.heldTo === undefined ? response : heldTo(preferred.heldTo, response), effect?.delayMs ?? 0, latencyMs)
}

async function operate(operation: Operation, request: PlainRequest, store: RedisAnimals, unchecked: ScopesState | undefined, version: string): Promise<PlainResponse> {
  switch (operation.kind) {
    case 'answer':
      if (unchecked !== undefined) await scopes.check(unchecked)
      return operation.response
    case 'list':
      return listedReply(await store.listJson(operation.query.limit, operation.query.status, version))
    case 'get':
      return foundReply(operation.id, await store.get(operation.id, version), foundHeadersFor(request.basePath))
    case 'create': {
      const created = await store.create(operation.newPet, version)
      return created.ok ? createdReply(created.value.id, created.value.json, request.basePath) : toErrorResponse(created.error)
    }
  }
}

  return function respond(route, request) {
    const auth = authenticate(request.headers.authorization, keys)
    if (!auth.ok) return toErrorResponse(auth.error)
    const preferred = options.prefer ? preferredOutcome(request) : undefined
    // Under isolation the key's store comes first, as in memory: a key refused a store gets that refusal.
    if (preferred?.kind === 'reply') return perform({ kind: 'answer', response: preferred.reply }, request, auth.value, {})
    return perform(planOperation(route, request, listQuery), request, auth.value, preferred && { heldTo: preferred.status })
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

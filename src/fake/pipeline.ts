import { authenticate, type KeyPolicy } from '../service/auth.js'
import type { BudgetLimits } from '../service/budget.js'
import { type ApiError, apiError, toErrorResponse } from '../service/errors.js'
import { type Fields, isDropped, type PlainRequest, type PlainResponse, type Reply, type Result } from '../service/http.js'
import type { Outcome } from '../store/journal-entry.js'
import { type Found, StoreUnavailable, type Maybe, type Operation, STALE, type StorePort, type Taken, andThen } from '../store/port.js'
import { EVERY_STORE, type Latency, type ScopeView } from '../store/scope.js'
import { createdReply, createFoundHeaders, createListQueryCache, finishReply, foundReply, heldTo, listedReply, matchRoute, planOperation, preferredOutcome, preflight, type Route } from './api-replies.js'
import { effectOf, type ForcedEffect, firstRule } from './forced.js'
import { pickDelay } from './latency.js'
import { refusalError, storeUnavailable } from './refusals.js'

/** Options of `createPipeline`. */
export type PipelineOptions = {
  readonly store: StorePort
  readonly keys: KeyPolicy
  /** The store of an accepted key: its label, or why it has none. */
  readonly storeFor: (token: string) => Maybe<Result<string, ApiError>>
  /** The scope of every store: its latency holds back the requests no store took, and its journal keeps them. */
  readonly every: string
  /** Whether `Prefer: code=NNN` chooses a request's answer (Prism's header). */
  readonly prefer: boolean
  /** The latency of a store when neither it nor every store has one of its own (`--latency`). */
  readonly latency: Latency
  readonly limits: BudgetLimits
  readonly now: () => number
  /** A number in [0, 1), for a delay within a latency range. */
  readonly random: () => number
  /**
   * The longest a request waits for a store that answers later (Redis, `--store-timeout`), every
   * step together; past it the request answers 503. None in memory, which answers at once.
   */
  readonly deadlineMs?: number
}

/** One request to the API and its reply, with whether a test chose the reply (forced, Prefer). */
export type ObservedExchange = { readonly request: PlainRequest; readonly reply: Reply; readonly forced: boolean }

/** Told of every API exchange as it is answered. */
export type ExchangeListener = (exchange: ObservedExchange) => void

/** The animals API as one function from a plain request to a reply, over a store port. */
export type Pipeline = {
  /** Answers at once when the store does (memory), later when it answers later (Redis). */
  handle(request: PlainRequest): Maybe<Reply>
  /** Calls `listener` with every API exchange as it is answered (preflights are not); returns the call that stops it. */
  observe(listener: ExchangeListener): () => void
}

/** How many times a request starts again on rules that changed under it before it answers 503. */
export const MAX_TRIES = 5

/** What became of one request: its reply, the store that answered (`null`: none), and who chose the answer. */
type Handled = { readonly reply: Reply; readonly label: string | null; readonly outcome: Outcome }

/** Who chose an answer that a forced rule had a hand in. */
const OUTCOME_OF = { respond: 'forced', drop: 'dropped', delay: 'delayed' } as const satisfies Record<ForcedEffect['kind'], Outcome>

/**
 * The API over a store port, the one request pipeline of every backend. Order: a CORS preflight
 * (browsers send it without credentials); the key; the key's store (its refusal first); the
 * request's own `Prefer`; the first forced rule of its store, then of every store; the route, the
 * method and the operation's input; the operation. The rule's use and the operation are one step
 * of the store, at the rules the request was matched against: when they moved meanwhile (another
 * replica), the request starts again, at most `MAX_TRIES` times. The answer is held back by the
 * rule's delay and the store's latency, kept in its store's journal, and told to the listeners.
 */
export function createPipeline(options: PipelineOptions): Pipeline {
  const { store, every, now, deadlineMs } = options
  const answer = createAnswering(options)
  let listeners: readonly ExchangeListener[] = []

  // The last touches, then the journal and the listeners: a journal that cannot keep an entry does not undo the answer.
  function finish(route: Route | undefined, request: PlainRequest, handled: Handled, receivedAt: number, deadline: number): Maybe<Reply> {
    const reply = finishReply(route, request, handled.reply)
    const dropped = isDropped(reply)
    const forced = handled.outcome !== 'answered'
    const kept = store.journal.record(handled.label ?? every, {
      request,
      receivedAt,
      tenant: handled.label,
      status: dropped ? null : reply.status,
      forced,
      outcome: handled.outcome,
      delayMs: reply.delayMs ?? 0,
      ...(dropped ? {} : { response: reply }),
    })
    for (const listener of listeners) listener({ request, reply, forced })
    if (!(kept instanceof Promise)) return reply
    // An entry the store could not keep is lost, the answer goes out all the same.
    const written = kept.then(
      () => reply,
      () => reply,
    )
    // The answer waits for its entry (a journal read through any replica then finds it) until the
    // request's deadline; while the store does not answer, it goes out at once without it.
    return store.answering() ? within(written, deadline - now(), () => reply) : reply
  }

  return {
    handle(request) {
      const route = matchRoute(request.path)
      if (request.method === 'OPTIONS') return preflight(route, request.headers)
      const receivedAt = now()
      const deadline = deadlineMs === undefined ? Infinity : receivedAt + deadlineMs
      const handled = answer(route, request)
      if (!(handled instanceof Promise)) return finish(route, request, handled, receivedAt, deadline)
      const late = () => unavailable(new StoreUnavailable(`The store did not answer within ${deadlineMs} ms (--store-timeout).`))
      return within(handled.catch(unavailable), deadline - receivedAt, late).then((done) => finish(route, request, done, receivedAt, deadline))
    },
    observe(listener) {
      listeners = [...listeners, listener]
      return () => {
        listeners = listeners.filter((other) => other !== listener)
      }
    },
  }
}

/** What a request to the API is answered, up to the last touches: the steps of `createPipeline`. */
function createAnswering(options: PipelineOptions): (route: Route | undefined, request: PlainRequest) => Maybe<Handled> {
  const { store, keys, storeFor, every, random } = options
  const foundHeadersFor = createFoundHeaders()
  const listQuery = createListQueryCache()
  const delayOf = (view: ScopeView): number => pickDelay(view.own.latency ?? view.every.latency ?? options.latency, random)

  // A request no store took (no key, a store refused) is answered without the store: held back by
  // every store's latency as this replica knows it (in memory, as it is; over Redis, as last read,
  // and by none before the first read), and kept in every store's journal.
  const unclaimed = (response: PlainResponse): Handled => {
    const view = store.rules.view(every)
    if (view instanceof Promise) view.catch(() => undefined)
    return { reply: withDelay(response, 0, view instanceof Promise ? 0 : delayOf(view)), label: null, outcome: 'answered' }
  }

  const attempt = (label: string, route: Route | undefined, request: PlainRequest, tries: number): Maybe<Handled> =>
    andThen(store.rules.view(label), (view) => once(label, view, route, request, tries))

  // One try at the rules of `view`: Prefer, the first rule, the operation, in one step of the store.
  function once(label: string, view: ScopeView, route: Route | undefined, request: PlainRequest, tries: number): Maybe<Handled> {
    const latencyMs = delayOf(view)
    const preferred = options.prefer ? preferredOutcome(request) : undefined
    if (preferred?.kind === 'reply') return { reply: withDelay(preferred.reply, 0, latencyMs), label, outcome: 'prefer' }
    const rule = preferred === undefined ? firstRule(view, request) : undefined
    const effect = rule === undefined ? undefined : effectOf(rule)
    const taken: Taken | undefined = rule?.remaining === undefined ? undefined : { scope: rule.tenant ?? EVERY_STORE, id: rule.id }
    // Starts again on the rules as they are now when they moved since `view`.
    const step = (operation: Operation | undefined, done: (found: Found) => Handled): Maybe<Handled> =>
      andThen(store.perform(label, view, taken, operation), (found) => (found !== STALE ? done(found) : tries < MAX_TRIES ? attempt(label, route, request, tries + 1) : { reply: toErrorResponse(rulesMoving()), label, outcome: 'answered' }))
    if (effect?.kind === 'respond' || effect?.kind === 'drop') {
      const reply = effect.kind === 'drop' ? effect.reply : effect.response
      return step(undefined, () => ({ reply: withDelay(reply, reply.delayMs, latencyMs), label, outcome: OUTCOME_OF[effect.kind] }))
    }
    const planned = planOperation(route, request, listQuery)
    const answered = (found: Found): Handled => {
      const response = found.kind === 'none' && planned.kind === 'answer' ? planned.response : responseOf(found, request.basePath, foundHeadersFor, options.limits)
      const held = preferred === undefined ? response : heldTo(preferred.status, response)
      return { reply: withDelay(held, effect?.delayMs, latencyMs), label, outcome: preferred !== undefined ? 'prefer' : effect === undefined ? 'answered' : 'delayed' }
    }
    // An answer of the route alone (a path or method the API has not, bad input) that meets no rule
    // needs the store only to know the rules and latency are still those of `view`: while the store
    // does not answer, it is given from the rules this replica knows, at once, not a 503 later.
    if (planned.kind === 'answer' && rule === undefined && !store.answering()) return answered(NONE)
    return step(planned.kind === 'answer' ? undefined : planned, answered)
  }

  return (route, request) => {
    const auth = authenticate(request.headers.authorization, keys)
    if (!auth.ok) return unclaimed(toErrorResponse(auth.error))
    return andThen(storeFor(auth.value), (claimed) => (claimed.ok ? attempt(claimed.value, route, request, 1) : unclaimed(toErrorResponse(claimed.error))))
  }
}

/** What the store found, as the API answers it. */
function responseOf(found: Found, basePath: string, foundHeadersFor: (basePath: string) => Fields, limits: BudgetLimits): PlainResponse {
  switch (found.kind) {
    case 'list':
      return listedReply(found.json)
    case 'get':
      return foundReply(found.id, found.json, foundHeadersFor(basePath))
    case 'create':
      return found.created.ok ? createdReply(found.created.value.id, found.created.value.json, basePath) : toErrorResponse(refusalError(found.created.error, limits))
    case 'none':
      throw new Error('the store did nothing for a request that asked it for an operation')
  }
}

/** The 503 of a request whose store could not serve it now; anything else is a bug, thrown on. */
function unavailable(error: unknown): Handled {
  if (!(error instanceof StoreUnavailable)) throw error
  return { reply: toErrorResponse(storeUnavailable(error)), label: null, outcome: 'answered' }
}

const NONE: Found = { kind: 'none' }

/** `promise`'s value, or `late()`'s when it has not settled within `ms` (never late for `Infinity`). */
function within<T>(promise: Promise<T>, ms: number, late: () => T): Promise<T> {
  if (ms === Infinity) return promise
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), Math.max(0, ms))
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** The 503 of a request that met rules changing under it `MAX_TRIES` times. */
function rulesMoving(): ApiError {
  return apiError('store_unavailable', `The forced rules or latency changed during this request ${MAX_TRIES} times in a row: try again.`, { 'retry-after': '1' })
}

/** A reply held back by a forced rule's delay and the store's latency together. */
function withDelay(reply: Reply, ruleMs: number | undefined, latencyMs: number): Reply {
  const delayMs = (ruleMs ?? 0) + latencyMs
  return delayMs === 0 && reply.delayMs === undefined ? reply : { ...reply, delayMs }
}

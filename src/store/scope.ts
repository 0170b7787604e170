/**
 * What a scope holds besides animals: its forced rules and its latency. A scope is one store's
 * (known by its label), or every store's (`EVERY_STORE`, under isolation: what was set without a
 * key, and the requests no store took).
 */

/** The label of the one store every key shares without isolation. */
export const SHARED_STORE = 'shared'

/** The scope of what applies to every store under isolation: rules and latency set without a key. */
export const EVERY_STORE = '*'

/** What a test asks for: which requests, how many times, and what they get instead. */
export type ForcedRuleSpec = {
  /** Only requests with this method; any method when absent. */
  readonly method?: string
  /** Only this path, below the base or with it (`/pets/7`, `/v1/pets/7`); `*` stands for one segment. */
  readonly path?: string
  /** Only the next this many matching requests; until removed when absent. */
  readonly times?: number
  /** Answer this status (400 to 599) with a valid Error body. */
  readonly status?: number
  /** The Error body's code; a usual one for the status when absent. */
  readonly code?: string
  /** The Error body's message. */
  readonly message?: string
  /** Hold the answer back this many milliseconds (on its own: a slow but normal answer). */
  readonly delayMs?: number
  /** Close the connection without an answer: a network error in a browser. */
  readonly drop?: boolean
}

/** A rule in force. */
export type ForcedRule = ForcedRuleSpec & {
  readonly id: number
  /** The label of the store it applies to; `null` for every store's requests (under isolation, set without a key). */
  readonly tenant: string | null
  /** How many more requests it answers when `times` was given. */
  readonly remaining?: number
}

/** The rule `id` of a scope, as both adapters keep it: `remaining` of its `times` when it has them. */
export function forcedRule(id: number, scope: string, spec: ForcedRuleSpec, remaining: number | undefined): ForcedRule {
  return { id, tenant: scope === EVERY_STORE ? null : scope, ...spec, ...(remaining === undefined ? {} : { remaining }) }
}

/** A rule as a request is matched against it: its path split at `/` once, when it was read. */
export type RuleInForce = ForcedRule & { readonly segments: readonly string[] | undefined }

/** A rule ready to be matched. */
export function inForce(rule: ForcedRule): RuleInForce {
  return { ...rule, segments: rule.path?.split('/') }
}

/** A rule as a scope lists it: without what matching needs. */
export function listed({ segments: _segments, ...rule }: RuleInForce): ForcedRule {
  return rule
}

/** The most rules in force in one scope: each request walks its scope's rules, so they are few by design. */
export const MAX_FORCED_RULES = 1000

/** The most rules in force in every scope together (under isolation): 10 stores' worth. */
export const MAX_FORCED_RULES_IN_ALL = 10 * MAX_FORCED_RULES

/** Which cap a rule did not fit: its scope's (`MAX_FORCED_RULES`), or every scope's (`MAX_FORCED_RULES_IN_ALL`). */
export type RulesFull = 'scope' | 'all'

/** How long every API answer is held back: not at all, a fixed time, or a random time in a range. */
export type Latency =
  | { readonly kind: 'none' }
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'range'; readonly minMs: number; readonly maxMs: number }

/** No added latency. */
export const NO_LATENCY: Latency = Object.freeze({ kind: 'none' })

/** One scope as a request meets it. */
export type ScopeState = {
  /** Its rules in the order they were added: the first that takes a request answers it. */
  readonly rules: readonly RuleInForce[]
  /** Its own latency, when one was set since every store's was. */
  readonly latency: Latency | undefined
  /** What the adapter checks this state against when a request acts on it (opaque; Redis's version of the scope). */
  readonly version: string
}

/**
 * What a request to one store meets: its store's scope, then every store's (the same object
 * without isolation, where the one store is every store).
 */
export type ScopeView = { readonly own: ScopeState; readonly every: ScopeState }

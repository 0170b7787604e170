import { type ApiError, apiError, errorBody, FakeInputError } from '../service/errors.js'
import { type DroppedConnection, fail, JSON_HEADERS, ok, type PlainRequest, type PlainResponse, type Result } from '../service/http.js'
import { isWholeNumber } from '../service/whole-number.js'
import { MAX_DELAY_MS } from './latency.js'
import { definedOnly } from '../service/defined-only.js'

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

/** What a matching rule does to one request. */
export type ForcedEffect =
  | { readonly kind: 'respond'; readonly response: PlainResponse }
  | { readonly kind: 'drop'; readonly reply: DroppedConnection }
  | { readonly kind: 'delay'; readonly delayMs: number }

/** The most rules in force in one store, and in every store together: each request walks its store's rules, so they are few by design. */
export const MAX_FORCED_RULES = 1000

/** The most rules in force in every store together (under isolation): 10 stores' worth. */
export const MAX_FORCED_RULES_IN_ALL = 10 * MAX_FORCED_RULES

/** The rules in force in one scope (a store, or every store), in the order they were added; the first match wins. */
export type ForcedRules = {
  /** Adds a rule; a `FakeInputError` (507, `rules_full`) past `MAX_FORCED_RULES` here or `MAX_FORCED_RULES_IN_ALL` in all. */
  add(spec: ForcedRuleSpec): ForcedRule
  /** The effect on `request` of the first matching rule, counting it as used. */
  take(request: PlainRequest): ForcedEffect | undefined
  list(): ForcedRule[]
  /** Removes the rule with this id, when it is one of these. */
  remove(id: number): boolean
  clear(): void
}

/** The most a forced rule may ask: how many requests, how long a delay, how long its texts. */
export const FORCED_RULE_LIMITS = { times: 1_000_000, delayMs: MAX_DELAY_MS, code: 100, message: 1000, path: 1000 } as const

const FORCED_RULE_FIELDS: ReadonlySet<string> = new Set(['method', 'path', 'times', 'status', 'code', 'message', 'delayMs', 'drop'])

/**
 * Checks a forced-response rule sent to the control API or in code; unknown fields are refused so
 * that a typo does not silently force nothing.
 * @example parseForcedRule({ method: 'GET', path: '/pets', status: 503, times: 1 }).ok // true
 */
export function parseForcedRule(input: unknown): Result<ForcedRuleSpec, ApiError> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail(invalid('A forced rule must be a JSON object.'))
  }
  const rule = input as Readonly<Record<string, unknown>>
  const unknown = Object.keys(rule).filter((key) => !FORCED_RULE_FIELDS.has(key))
  if (unknown.length > 0) return fail(invalid(`Unknown field(s) ${unknown.map((k) => `'${k}'`).join(', ')}.`))
  const { method, path, times, status, code, message, delayMs, drop } = rule
  if (method !== undefined && (typeof method !== 'string' || !/^[A-Za-z]{1,20}$/.test(method))) {
    return fail(invalid("Field 'method' must be an HTTP method such as GET."))
  }
  if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/') || path.length > FORCED_RULE_LIMITS.path)) {
    return fail(invalid("Field 'path' must start with / (for example /pets or /pets/*)."))
  }
  if (times !== undefined && !isWholeNumber(times, 1, FORCED_RULE_LIMITS.times)) {
    return fail(invalid(`Field 'times' must be a whole number from 1 to ${FORCED_RULE_LIMITS.times}.`))
  }
  if (status !== undefined && !isWholeNumber(status, 400, 599)) {
    return fail(invalid("Field 'status' must be an error status from 400 to 599."))
  }
  if (code !== undefined && (typeof code !== 'string' || code === '' || code.length > FORCED_RULE_LIMITS.code)) {
    return fail(invalid(`Field 'code' must be a string of 1 to ${FORCED_RULE_LIMITS.code} characters.`))
  }
  if (message !== undefined && (typeof message !== 'string' || message.length > FORCED_RULE_LIMITS.message)) {
    return fail(invalid(`Field 'message' must be a string of at most ${FORCED_RULE_LIMITS.message} characters.`))
  }
  if (delayMs !== undefined && !isWholeNumber(delayMs, 0, FORCED_RULE_LIMITS.delayMs)) {
    return fail(invalid(`Field 'delayMs' must be a whole number from 0 to ${FORCED_RULE_LIMITS.delayMs}.`))
  }
  if (drop !== undefined && typeof drop !== 'boolean') return fail(invalid("Field 'drop' must be true or false."))
  if (status === undefined && delayMs === undefined && drop !== true) {
    return fail(invalid("A forced rule needs 'status', 'delayMs' or 'drop'."))
  }
  if (status !== undefined && drop === true) return fail(invalid("'status' and 'drop' exclude each other."))
  if ((code !== undefined || message !== undefined) && status === undefined) {
    return fail(invalid("'code' and 'message' need a 'status'."))
  }
  return ok(rule as ForcedRuleSpec)
}

/**
 * What every scope's rules share: the ids (one rule, one id, whichever store holds it) and the
 * count that `MAX_FORCED_RULES_IN_ALL` bounds.
 */
export type ForcedRulePool = { lastId: number; inForce: number }

/** A pool for the rules of one fake. */
export function createForcedRulePool(): ForcedRulePool {
  return { lastId: 0, inForce: 0 }
}

/**
 * Creates the empty rules of one scope: `owner` is the label of the store they answer for
 * (`null`: every store), shown on each rule.
 */
export function createForcedRules(owner: string | null = null, pool: ForcedRulePool = createForcedRulePool()): ForcedRules {
  let rules: (ForcedRule & { readonly segments: readonly string[] | undefined })[] = []
  const replace = (next: typeof rules): void => {
    pool.inForce += next.length - rules.length
    rules = next
  }
  return {
    add(spec) {
      if (rules.length >= MAX_FORCED_RULES) {
        throw new FakeInputError(rulesFull('scope'))
      }
      if (pool.inForce >= MAX_FORCED_RULES_IN_ALL) {
        throw new FakeInputError(rulesFull('all'))
      }
      pool.lastId += 1
      const method = spec.method?.toUpperCase()
      const rule: ForcedRule = {
        id: pool.lastId,
        tenant: owner,
        ...spec,
        ...definedOnly({ method }),
        ...definedOnly({ remaining: spec.times }),
      }
      replace([...rules, { ...rule, segments: spec.path?.split('/') }])
      return rule
    },
    take(request) {
      // Stryker disable next-line ConditionalExpression: a fast path: no rule matches anyway
      if (rules.length === 0) return undefined
      const index = rules.findIndex((rule) => applies(rule, rule.segments, request))
      const rule = rules[index]
      if (rule === undefined) return undefined
      if (rule.remaining !== undefined) {
        replace(rule.remaining <= 1 ? rules.filter((_, i) => i !== index) : rules.with(index, { ...rule, remaining: rule.remaining - 1 }))
      }
      return effectOf(rule)
    },
    list: () => rules.map(withoutSegments),
    remove(id) {
      const before = rules.length
      replace(rules.filter((rule) => rule.id !== id))
      return rules.length < before
    },
    clear() {
      replace([])
    },
  }
}

/** Whether `rule` (its path split at `/` as `segments`) takes `request`: its method, and its path below the base or with it. */
export function applies(rule: ForcedRuleSpec, segments: readonly string[] | undefined, request: PlainRequest): boolean {
  if (rule.method !== undefined && rule.method !== request.method) return false
  if (segments === undefined) return true
  return matchesPath(segments, request.path) || matchesPath(segments, `${request.basePath}${request.path}`)
}

function matchesPath(pattern: readonly string[], path: string): boolean {
  const segments = path.split('/')
  return segments.length === pattern.length && pattern.every((part, i) => part === '*' || part === segments[i])
}

/** What `rule` does to a request it takes. */
export function effectOf(rule: ForcedRuleSpec): ForcedEffect {
  const delayMs = rule.delayMs ?? 0
  if (rule.drop === true) return { kind: 'drop', reply: { kind: 'drop', delayMs } }
  if (rule.status === undefined) return { kind: 'delay', delayMs }
  const message = rule.message ?? `A forced ${rule.status} response set through animals-mock.`
  return { kind: 'respond', response: { ...forcedErrorResponse(rule.status, message, rule.code), delayMs } }
}

/** The 507 of a rule past `MAX_FORCED_RULES` in its scope, or past `MAX_FORCED_RULES_IN_ALL` in every scope together. */
export function rulesFull(where: 'scope' | 'all'): ApiError {
  if (where === 'scope') return apiError('rules_full', `At most ${MAX_FORCED_RULES} forced rules can be in force; remove some first.`)
  return apiError('rules_full', `At most ${MAX_FORCED_RULES_IN_ALL} forced rules can be in force in every store together; remove some first.`)
}

/** A chosen error status with a valid Error body; `code` a usual one for the status unless given. */
export function forcedErrorResponse(status: number, message: string, code?: string): PlainResponse {
  const usualCodes: Readonly<Record<number, string>> = {
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    408: 'request_timeout',
    409: 'conflict',
    422: 'unprocessable_entity',
    429: 'too_many_requests',
    500: 'internal_error',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
  }
  return { status, headers: JSON_HEADERS, body: errorBody(code ?? usualCodes[status] ?? `error_${status}`, message, status) }
}

function withoutSegments({ segments: _segments, ...rule }: ForcedRule & { readonly segments: unknown }): ForcedRule {
  return rule
}

function invalid(message: string): ApiError {
  return apiError('invalid_body', message)
}

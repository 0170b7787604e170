import { type ApiError, apiError, errorBody } from '../service/errors.js'
import { type DroppedConnection, fail, JSON_HEADERS, ok, type PlainRequest, type PlainResponse, type Result } from '../service/http.js'
import { isWholeNumber } from '../service/whole-number.js'
import { type ForcedRuleSpec, MAX_FORCED_RULES, MAX_FORCED_RULES_IN_ALL, type RuleInForce, type RulesFull, type ScopeView } from '../store/scope.js'
import { MAX_DELAY_MS } from './latency.js'

/** What a matching rule does to one request. */
export type ForcedEffect =
  | { readonly kind: 'respond'; readonly response: PlainResponse }
  | { readonly kind: 'drop'; readonly reply: DroppedConnection }
  | { readonly kind: 'delay'; readonly delayMs: number }

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
  // A method in any case is the method in capitals, as requests carry it.
  return ok((typeof method === 'string' ? { ...rule, method: method.toUpperCase() } : rule) as ForcedRuleSpec)
}

/**
 * The first rule of `view` that takes `request`: its store's own, then every store's (not twice
 * where they are one scope).
 */
export function firstRule(view: ScopeView, request: PlainRequest): RuleInForce | undefined {
  const { own, every } = view
  const mine = firstOf(own.rules, request)
  return mine !== undefined || every === own ? mine : firstOf(every.rules, request)
}

// A loop, not `find`: most requests meet no rule, and then no closure is made for them.
function firstOf(rules: readonly RuleInForce[], request: PlainRequest): RuleInForce | undefined {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as RuleInForce
    if (applies(rule, rule.segments, request)) return rule
  }
  return undefined
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
export function rulesFull(where: RulesFull): ApiError {
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

function invalid(message: string): ApiError {
  return apiError('invalid_body', message)
}

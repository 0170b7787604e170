import { type ApiError, apiError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { isWholeNumber } from '../service/whole-number.js'
import { type Latency, NO_LATENCY } from '../store/scope.js'

/** A latency setting as users write it: `{}` for none, `{ ms }` fixed, `{ minMs, maxMs }` a range. */
export type LatencySpec = { readonly ms?: number; readonly minMs?: number; readonly maxMs?: number }

/** The longest an answer is held back, by a latency or a forced delay: five minutes. */
export const MAX_DELAY_MS = 300_000

/**
 * Reads a latency setting: `{}` or `{"ms": 0}` for none, `{"ms": 250}`, or `{"minMs": 100, "maxMs": 900}`.
 * @example parseLatency({ minMs: 100, maxMs: 900 }) // { ok: true, value: { kind: 'range', minMs: 100, maxMs: 900 } }
 */
export function parseLatency(input: unknown): Result<Latency, ApiError> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail(invalid('A latency setting must be a JSON object: {"ms": n} or {"minMs": a, "maxMs": b}.'))
  }
  const { ms, minMs, maxMs, ...rest } = input as Readonly<Record<string, unknown>>
  const unknown = Object.keys(rest)
  if (unknown.length > 0) return fail(invalid(`Unknown field(s) ${unknown.map((k) => `'${k}'`).join(', ')}.`))
  if (ms !== undefined && (minMs !== undefined || maxMs !== undefined)) {
    return fail(invalid("Give either 'ms' or 'minMs' and 'maxMs', not both."))
  }
  if (ms !== undefined) {
    if (!isMillis(ms)) return fail(invalid(`Field 'ms' must be a whole number from 0 to ${MAX_DELAY_MS}.`))
    return ok(ms === 0 ? NO_LATENCY : { kind: 'fixed', ms })
  }
  if (minMs === undefined && maxMs === undefined) return ok(NO_LATENCY)
  if (!isMillis(minMs) || !isMillis(maxMs) || minMs > maxMs) {
    return fail(invalid(`Fields 'minMs' and 'maxMs' must be whole numbers from 0 to ${MAX_DELAY_MS}, minMs <= maxMs.`))
  }
  return ok({ kind: 'range', minMs, maxMs })
}

/** The setting as users write it and the control API shows it. */
export function toLatencySpec(latency: Latency): LatencySpec {
  if (latency.kind === 'fixed') return { ms: latency.ms }
  if (latency.kind === 'range') return { minMs: latency.minMs, maxMs: latency.maxMs }
  return {}
}

/** The delay for one answer; `random` returns a number in [0, 1). */
export function pickDelay(latency: Latency, random: () => number): number {
  if (latency.kind === 'none') return 0
  if (latency.kind === 'fixed') return latency.ms
  return latency.minMs + Math.floor(random() * (latency.maxMs - latency.minMs + 1))
}

function isMillis(value: unknown): value is number {
  return isWholeNumber(value, 0, MAX_DELAY_MS)
}

function invalid(message: string): ApiError {
  return apiError('invalid_body', message)
}

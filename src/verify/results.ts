import { definedOnly } from '../service/defined-only.js'
import { isRecord } from '../service/json-value.js'
/**
 * What part of the answer a mismatch is about; `error` when there was no answer to compare, `state`
 * when a provider state could not be set up.
 */
export type MismatchKind = 'state' | 'error' | 'status' | 'header' | 'body' | 'query' | 'path' | 'method' | 'metadata'

/** One way the provider's answer differed from the pact, as Pact's verifier found it. */
export type Mismatch = {
  readonly kind: MismatchKind
  /** The verifier's own sentence, e.g. `expected 201 but was 200`. */
  readonly message: string
  /** The header name, body path (`$.status`) or query parameter. */
  readonly key?: string
  readonly expected?: string
  readonly actual?: string
}

/** One interaction of a pact and how the provider did. */
export type InteractionOutcome = {
  /** The consumer whose pact holds it; absent when the verifier's report did not say. */
  readonly consumer?: string
  readonly description: string
  readonly providerStates: readonly string[]
  readonly passed: boolean
  readonly durationMs?: number
  readonly mismatches: readonly Mismatch[]
}

/** The interactions verified, and problems not tied to one (e.g. a pact that could not be loaded). */
export type VerificationOutcomes = { readonly interactions: readonly InteractionOutcome[]; readonly problems: readonly string[] }

/** What `toVerificationOutcomes` needs to make the verifier's messages say where it really sent requests. */
export type OutcomeContext = {
  /** The provider's API base: the verifier reports its own proxy's address instead. */
  readonly providerBaseUrl: string
  readonly timeoutMs?: number
}

type RawResult = { readonly description: string; readonly result: string; readonly duration?: string }
type RawError = { readonly interaction: string; readonly mismatch: unknown }
type Located = { consumer?: string; description: string; providerStates: string[] }

/** How Pact's printed report opens each pact's section. */
const PACT_HEADER = 'Verifying a pact between '

/** The order mismatches are listed in; no 'state': a provider state's failure is put ahead of these afterwards (provider.ts). */
const MISMATCH_ORDER: readonly MismatchKind[] = ['error', 'method', 'path', 'query', 'status', 'header', 'body', 'metadata']

/**
 * Reads the JSON report of Pact's verifier (`interactionResults`, `errors`, `output`) into one
 * outcome per interaction with its mismatches, in the verifier's order.
 */
export function toVerificationOutcomes(json: unknown, context: OutcomeContext): VerificationOutcomes {
  const record = isRecord(json) ? json : {}
  const results = arrayOf(record.interactionResults).filter(isRawResult)
  // A pending interaction's failure (a V4 pact can mark one) is listed apart, in `pendingErrors`.
  const errors = [...arrayOf(record.errors), ...arrayOf(record.pendingErrors)].filter(isRawError)
  const located = locate(arrayOf(record.output).filter((line): line is string => typeof line === 'string'))
  let cursor = 0
  const interactions = results.map((result): InteractionOutcome => {
    const found = located.findIndex((each, index) => index >= cursor && each.description === result.description)
    const where = located[found] // located[-1] is undefined: an interaction the printed report does not name
    if (found !== -1) cursor = found + 1
    const consumer = where?.consumer
    const mismatches = errors
      .filter((error) => labels(error.interaction, result.description, consumer))
      .flatMap((error) => toMismatches(error.mismatch, context))
      .sort((a, b) => MISMATCH_ORDER.indexOf(a.kind) - MISMATCH_ORDER.indexOf(b.kind))
    const durationMs = parseDuration(result.duration)
    return {
      ...definedOnly({ consumer }),
      description: result.description,
      providerStates: where?.providerStates ?? [],
      passed: result.result === 'OK',
      ...definedOnly({ durationMs }),
      mismatches,
    }
  })
  const problems = errors
    .filter((error) => !results.some((result) => labels(error.interaction, result.description, undefined)))
    .map((error) => {
      const detail = toMismatches(error.mismatch, context).map((each) => each.message)
      return detail.length === 0 ? error.interaction : `${error.interaction}: ${detail.join('; ')}`
    })
  return { interactions, problems }
}

function labels(label: string, description: string, consumer: string | undefined): boolean {
  if (!label.startsWith(PACT_HEADER) || !label.endsWith(` - ${description}`)) return false
  return consumer === undefined || label.startsWith(`${PACT_HEADER}${consumer} and `)
}

// The verifier's printed report is the only place that names each interaction's consumer and
// provider states, passing ones included.
function locate(output: readonly string[]): Located[] {
  const found: Located[] = []
  let consumer: string | undefined
  let current: Located | undefined
  for (const raw of output.flatMap((chunk) => chunk.split('\n'))) {
    const line = stripAnsi(raw)
    if (line.startsWith(PACT_HEADER)) {
      consumer = consumerOf(raw)
      current = undefined
    } else if (line.startsWith('  ') && !line.startsWith('   ') && line.trim() !== '') {
      const description = withoutTiming(line.slice(2))
      current = consumer === undefined ? { description, providerStates: [] } : { consumer, description, providerStates: [] }
      found.push(current)
    } else if (current !== undefined && (line.trimStart().startsWith('Given ') || line.trimStart().startsWith('And '))) {
      const text = line.trimStart()
      current.providerStates.push(text.slice(text.indexOf(' ') + 1))
    } else if (line.trimStart().startsWith('returns a response')) {
      current = undefined
    }
  }
  return found
}

function consumerOf(raw: string): string | undefined {
  // The names are printed in bold; without colours, split at the last " and ".
  const bold = '\u001b[1m'
  const start = raw.indexOf(bold)
  if (start !== -1) {
    const end = raw.indexOf('\u001b[0m', start)
    if (end !== -1) return raw.slice(start + bold.length, end)
  }
  const text = stripAnsi(raw).slice(PACT_HEADER.length)
  const split = text.lastIndexOf(' and ')
  return split === -1 ? undefined : text.slice(0, split)
}

// The verifier prints "<description> (<timing>)", then " [PENDING]" when the interaction is pending.
function withoutTiming(text: string): string {
  const pending = ' [PENDING]'
  const line = text.endsWith(pending) ? text.slice(0, -pending.length) : text
  const open = line.lastIndexOf(' (')
  return open !== -1 && line.endsWith('verification)') ? line.slice(0, open) : line
}

function toMismatches(raw: unknown, context: OutcomeContext): Mismatch[] {
  if (!isRecord(raw)) return []
  if (raw.type === 'error') return [{ kind: 'error', message: explainError(String(raw.message ?? 'unknown error'), context) }]
  return arrayOf(raw.mismatches).filter(isRecord).map((each) => toMismatch(each))
}

function toMismatch(raw: Record<string, unknown>): Mismatch {
  // A Map, so a type named like an object's own property (`toString`) is not found in it. Any other
  // type, BodyMismatch and BodyTypeMismatch among them, is a body mismatch.
  const kindOf = new Map<string, MismatchKind>([
    ['StatusMismatch', 'status'],
    ['HeaderMismatch', 'header'],
    ['QueryMismatch', 'query'],
    ['PathMismatch', 'path'],
    ['MethodMismatch', 'method'],
    ['MetadataMismatch', 'metadata'],
  ])
  const kind = kindOf.get(String(raw.type)) ?? 'body'
  const key = textOf(raw.key ?? raw.path ?? raw.parameter)
  const expected = textOf(raw.expected)
  const actual = textOf(raw.actual)
  return {
    kind,
    message: textOf(raw.mismatch) ?? `${kind} mismatch`,
    ...definedOnly({ key }),
    ...definedOnly({ expected }),
    ...definedOnly({ actual }),
  }
}

/**
 * The verifier sends every request through pact-js's proxy on 127.0.0.1 and reports that
 * address; say which request of the provider got no answer instead.
 */
function explainError(message: string, context: OutcomeContext): string {
  const sending = 'error sending request for url ('
  const start = message.indexOf(sending)
  const end = message.indexOf(')', start)
  if (start === -1 || end === -1) return message
  let path: string
  try {
    path = new URL(message.slice(start + sending.length, end)).pathname
  } catch {
    return message
  }
  const within = context.timeoutMs === undefined ? '' : ` within ${context.timeoutMs} ms`
  if (path === '/_pactSetup') return `the provider state could not be set up${within}: its calls to the provider failed or took too long`
  return `no answer from ${context.providerBaseUrl}${path}${within} (timed out, or the connection failed)`
}

function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined || !text.endsWith('ms')) return undefined
  const value = Number(text.slice(0, -2))
  return Number.isFinite(value) ? value : undefined
}

/** Text without terminal colour codes. */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '')
}

function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  return typeof value === 'string' ? value : JSON.stringify(value)
}


function arrayOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : []
}

function isRawResult(value: unknown): value is RawResult {
  return isRecord(value) && typeof value.description === 'string' && typeof value.result === 'string'
}

function isRawError(value: unknown): value is RawError {
  return isRecord(value) && typeof value.interaction === 'string'
}

import { CONTROL_BASE } from '../fake/control.js'
import { ASSETS_BASE } from '../site/asset-file.js'
import type { Exchange } from '../node/server.js'

/** How `serve` prints each request: a readable line, one JSON object, or nothing. */
export type LogFormat = 'text' | 'json'

/** Options of `createRequestLog`. */
export type RequestLogOptions = {
  readonly format: LogFormat
  /** ANSI colours by status class; only for a terminal. */
  readonly colour: boolean
  readonly write: (line: string) => void
  /** The time a request ended, in milliseconds; injected so tests can fix it. */
  readonly now?: () => number
}

/**
 * Makes the `onExchange` of the server print one line per request: method, path without query,
 * status and duration. Never the query, headers or body, which may carry credentials. Successful
 * reads of the control API and of page assets are left out: the dashboard polls the one every
 * second and loads a dozen of the other.
 * @example createRequestLog({ format: 'text', colour: false, write: (line) => process.stdout.write(line) })
 */
export function createRequestLog(options: RequestLogOptions): (exchange: Exchange) => void {
  const now = options.now ?? Date.now
  // A busy fake logs thousands of lines a second: the clock text is made once per second.
  let second = Number.NaN
  let clock = ''
  return (exchange) => {
    if (isQuietRead(exchange)) return
    const time = now()
    if (options.format === 'json') {
      options.write(toJsonLine(exchange, new Date(time)))
      return
    }
    if (Math.floor(time / 1000) !== second) {
      second = Math.floor(time / 1000)
      clock = clockText(new Date(time))
    }
    options.write(toTextLine(exchange, clock, options.colour))
  }
}

/** The local time of day as the text lines show it, e.g. `12:00:01`. */
export function clockText(time: Date): string {
  return [time.getHours(), time.getMinutes(), time.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':')
}

/** A writer that gathers lines and writes them together, at most `BATCH_MS` after the first. */
export type BatchedWriter = { write(line: string): void; flush(): void }

/** How long a log line may wait for others to go out with it. */
export const BATCH_MS = 50

/** Bytes gathered before a batch goes out early. */
export const BATCH_BYTES = 64 * 1024

/**
 * Batches log lines: on Linux a write to a pipe or file is a synchronous system call, so writing
 * each line on its own would cost every request one. Lines wait at most `BATCH_MS`, too short for a
 * person watching to notice, and go out in one write.
 *
 * Each line is copied into a buffer outside the JavaScript heap as it comes: a busy fake logs
 * thousands of lines in `BATCH_MS`, and an array of them would keep every line, and the request
 * path it holds, alive through a garbage collection or two, which costs more than the formatting.
 * @example const out = createBatchedWriter((bytes) => process.stdout.write(bytes))
 */
export function createBatchedWriter(write: (bytes: Uint8Array) => void): BatchedWriter {
  let pending = Buffer.allocUnsafeSlow(BATCH_BYTES)
  let used = 0
  let scheduled = false
  const flush = (): void => {
    if (used === 0) return
    const batch = pending.subarray(0, used)
    // The stream may still hold the batch after write returns (a pipe, a terminal): the next batch
    // goes into a new buffer.
    pending = Buffer.allocUnsafeSlow(BATCH_BYTES)
    used = 0
    write(batch)
  }
  const onTimer = (): void => {
    scheduled = false
    flush()
  }
  return {
    write(line) {
      // A UTF-16 code unit takes at most 3 bytes in UTF-8.
      if (used + line.length * 3 > BATCH_BYTES) {
        flush()
        if (line.length * 3 > BATCH_BYTES) return write(Buffer.from(line))
      }
      used += pending.write(line, used)
      if (!scheduled) {
        scheduled = true
        setTimeout(onTimer, BATCH_MS)
      }
    },
    flush,
  }
}

/**
 * Colours only on a terminal, and never when `NO_COLOR` is set to anything (no-color.org).
 */
export function useColour(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return isTTY === true && (env.NO_COLOR ?? '') === ''
}

/** Lines in one readable form, e.g. `12:00:01 GET /v1/pets 200 1.2ms`. */
export function toTextLine(exchange: Exchange, clock: string, colour: boolean): string {
  const status = exchange.status === null ? 'dropped' : String(exchange.status)
  const painted = colour ? `${COLOURS[statusClass(exchange.status)]}${status}${RESET}` : status
  return `${clock} ${printable(exchange.method)} ${printable(exchange.path)} ${painted} ${tenths(exchange.durationMs)}ms\n`
}

/** A duration with one decimal, as toFixed(1) writes it, without its cost on every line. */
function tenths(ms: number): string {
  const rounded = Math.round(ms * 10)
  return `${Math.floor(rounded / 10)}.${rounded % 10}`
}

/** One JSON object per line, for machines. */
export function toJsonLine(exchange: Exchange, time: Date): string {
  return `${JSON.stringify({
    time: time.toISOString(),
    method: exchange.method,
    path: exchange.path,
    status: exchange.status,
    durationMs: Math.round(exchange.durationMs * 10) / 10,
  })}\n`
}

const RESET = '\u001b[0m'
const COLOURS = { '2': '\u001b[32m', '3': '\u001b[36m', '4': '\u001b[33m', '5': '\u001b[31m', other: '\u001b[35m' } as const

function statusClass(status: number | null): keyof typeof COLOURS {
  const first = status === null ? '' : String(status)[0]
  return first === '2' || first === '3' || first === '4' || first === '5' ? first : 'other'
}

function isQuietRead({ method, path, status }: Exchange): boolean {
  const quietPath = path === CONTROL_BASE || path.startsWith(`${CONTROL_BASE}/`) || path.startsWith(ASSETS_BASE)
  return (method === 'GET' || method === 'HEAD') && quietPath && status !== null && status < 400
}

// A path is the client's text: a terminal must never receive its control characters. (Node's
// parser refuses them in a request line today; this holds whatever reaches the log.)
const UNPRINTABLE = /[^\x21-\x7e]/g

function printable(text: string): string {
  return text.replace(UNPRINTABLE, '?')
}

/** The phrase for each connection error code fetch (undici) and node:http report. */
const CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
}

// Own keys only, so a code named like an object's property (`toString`) is as unknown as any other.
function causeOf(code: string): string | undefined {
  return Object.hasOwn(CAUSES, code) ? CAUSES[code] : undefined
}

/**
 * One short phrase for why `fetch` failed: a refused connection, a DNS failure, a timeout.
 * @example describeFetchError(error, 5000) // 'connection refused (ECONNREFUSED)'
 */
export function describeFetchError(error: unknown, timeoutMs?: number): string {
  if (isNamed(error, 'TimeoutError')) return timeoutMs === undefined ? 'no answer in time' : `no answer within ${timeoutMs} ms`
  if (isNamed(error, 'AbortError')) return 'the request was aborted'
  const cause = (error as { cause?: unknown } | null)?.cause
  const code = (cause as { code?: unknown } | null)?.code
  if (typeof code === 'string') {
    const known = causeOf(code)
    if (known !== undefined) return `${known} (${code})`
    const message = (cause as { message?: unknown }).message
    return typeof message === 'string' ? `${message} (${code})` : code
  }
  if (cause instanceof Error) return cause.message
  return error instanceof Error ? error.message : String(error)
}

function isNamed(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name
}

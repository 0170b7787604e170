// A function, not a table built when the module loads: read at each call, so its phrases are
// checked by the tests that call it (a mutation run cannot switch what was built on loading).
function causeOf(code: string): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ENOTFOUND':
      return 'host not found (DNS)'
    case 'EAI_AGAIN':
      return 'host not found (DNS lookup failed)'
    case 'ECONNRESET':
      return 'connection reset'
    case 'EHOSTUNREACH':
      return 'host unreachable'
    case 'ENETUNREACH':
      return 'network unreachable'
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connection timed out'
    case 'UND_ERR_SOCKET':
      return 'connection closed'
    case 'UND_ERR_HEADERS_TIMEOUT':
      return 'no answer in time'
    default:
      return undefined
  }
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

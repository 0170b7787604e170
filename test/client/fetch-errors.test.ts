import { expect, it } from 'vitest'
import { describeFetchError } from '../../src/client/fetch-errors.js'

const failed = (cause: unknown) => new TypeError('fetch failed', { cause })
const systemError = (code: string, message = `connect ${code} 127.0.0.1:1`) => Object.assign(new Error(message), { code })

it('names a timeout with the deadline when it is known', () => {
  const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError')
  expect(describeFetchError(timeout, 5000)).toBe('no answer within 5000 ms')
  expect(describeFetchError(timeout)).toBe('no answer in time')
  expect(describeFetchError(new DOMException('This operation was aborted', 'AbortError'), 5000)).toBe('the request was aborted')
})

it('says in words why the connection failed, with the system\'s code', () => {
  for (const [code, words] of [
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'host not found (DNS)'],
    ['EAI_AGAIN', 'host not found (DNS lookup failed)'],
    ['ECONNRESET', 'connection reset'],
    ['EHOSTUNREACH', 'host unreachable'],
    ['ENETUNREACH', 'network unreachable'],
    ['ETIMEDOUT', 'connection timed out'],
    ['UND_ERR_SOCKET', 'connection closed'],
    ['UND_ERR_HEADERS_TIMEOUT', 'no answer in time'],
    ['UND_ERR_CONNECT_TIMEOUT', 'connection timed out'],
  ] as const) {
    expect(describeFetchError(failed(systemError(code)))).toBe(`${words} (${code})`)
  }
})

it('keeps the message of a cause with a code it does not know, or the code alone', () => {
  expect(describeFetchError(failed(systemError('ERR_TLS_CERT_ALTNAME_INVALID', 'Hostname/IP does not match certificate')))).toBe(
    'Hostname/IP does not match certificate (ERR_TLS_CERT_ALTNAME_INVALID)',
  )
  expect(describeFetchError(failed({ code: 'EPROTO' }))).toBe('EPROTO')
  // A code named like an object's own property is as unknown as any other.
  expect(describeFetchError(failed({ code: 'toString' }))).toBe('toString')
  expect(describeFetchError(failed({ code: 'constructor', message: 'odd' }))).toBe('odd (constructor)')
})

it('falls back to the cause\'s message, then the error\'s own, then the value itself', () => {
  expect(describeFetchError(failed(new Error('other side hung up')))).toBe('other side hung up')
  expect(describeFetchError(failed({ code: 42 }))).toBe('fetch failed')
  expect(describeFetchError(failed('a string cause'))).toBe('fetch failed')
  expect(describeFetchError(new Error('plain'))).toBe('plain')
  expect(describeFetchError({ name: 'Other', cause: null })).toBe('[object Object]')
  expect(describeFetchError('refused')).toBe('refused')
  expect(describeFetchError(null)).toBe('null')
  expect(describeFetchError(undefined)).toBe('undefined')
})

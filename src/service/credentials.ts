import type { Fields } from './http.js'

/** What a credential is replaced with wherever it would be shown. */
export const REDACTED = '[redacted]'

/**
 * Header names that say they carry a credential: Authorization, Proxy-Authorization, Cookie,
 * Set-Cookie, X-Api-Key, X-Control-Token, X-Auth-Token, X-Amz-Security-Token, X-Session-Id, ...
 */
export const CREDENTIAL_HEADER = /auth|token|key|secret|session|cookie|signature|password|credential/i

/** Query parameter names that say they carry one: `api_key`, `access_token`, `sessionId`, ... */
export const CREDENTIAL_PARAM = /key|token|secret|password|auth|signature|session|cookie|credential/i

/** A query string with the values of credential-like parameters (`api_key`, `token`...) redacted. */
export function redactQuery(search: string): string {
  const query = new URLSearchParams()
  for (const [name, value] of new URLSearchParams(search)) query.append(name, CREDENTIAL_PARAM.test(name) ? REDACTED : value)
  return query.toString()
}

/** Removes credentials from text: a function of text to text. */
export type Scrubber = (text: string) => string

/**
 * Every credential a request carried, each in the forms an answer may echo: a credential header's
 * value whole and each word after its scheme (`Bearer k` gives `Bearer k` and `k`; a key sent
 * without a scheme is one word, itself), each cookie's value, and the value of each credential-like
 * query parameter.
 * @example credentialsOf({ headers: { authorization: 'Bearer k-1' }, search: 'api_key=q-2' }) // ['Bearer k-1', 'k-1', 'q-2']
 */
export function credentialsOf(request: { readonly headers: Fields; readonly search: string }): string[] {
  const found = new Set<string>()
  const add = (value: string): void => {
    const trimmed = value.trim()
    // Punctuation alone (a stray `;`) is no credential, nor a scheme sent without one (`Bearer `).
    if (/[A-Za-z0-9]/.test(trimmed) && !/^(?:bearer|basic)$/i.test(trimmed)) found.add(trimmed)
  }
  for (const [name, value] of Object.entries(request.headers)) {
    if (!CREDENTIAL_HEADER.test(name)) continue
    add(value)
    if (name === 'cookie') {
      for (const pair of value.split(';')) add(pair.slice(pair.indexOf('=') + 1))
      continue
    }
    for (const word of value.trim().split(/\s+/).slice(1)) add(word)
  }
  for (const [name, value] of new URLSearchParams(request.search)) if (CREDENTIAL_PARAM.test(name)) add(value)
  return [...found]
}

/**
 * Credentials this long are replaced wherever they appear. A shorter one is replaced only where it
 * stands as a whole word: a one-letter key replaced inside every word would garble the text and,
 * by what went missing, tell the key.
 */
const ANYWHERE_FROM = 8

/** The characters a word is made of (RFC 3986's unreserved): `/`, `+` and `=` end one, as in a path. */
const WORD_CHARS = 'A-Za-z0-9\\-._~'

/**
 * A scrubber that replaces each credential, as written and percent-encoded, with `[redacted]`:
 * anywhere when it has 8 characters or more, as a whole word when shorter. Empty and missing ones
 * are skipped. Apply it to what came from outside (values, paths, records), not to prose of our own.
 * @example createScrubber(['k-123456'])('Bearer k-123456') // 'Bearer [redacted]'
 * @example createScrubber(['a'])('{"name":"a","status":"available"}') // '{"name":"[redacted]","status":"available"}'
 */
export function createScrubber(credentials: readonly (string | undefined)[]): Scrubber {
  const forms = new Set<string>()
  for (const credential of credentials) {
    if (credential === undefined || credential === '') continue
    forms.add(credential)
    forms.add(encodeURIComponent(credential))
  }
  // Longest first, so a credential that contains another is replaced whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length)
  const anywhere = ordered.filter((form) => form.length >= ANYWHERE_FROM)
  const short = ordered.filter((form) => form.length < ANYWHERE_FROM).map(escapeRegExp)
  const tokens = short.length === 0 ? undefined : new RegExp(`(?<![${WORD_CHARS}])(?:${short.join('|')})(?![${WORD_CHARS}])`, 'g')
  return (text) => {
    const scrubbed = anywhere.reduce((result, form) => result.split(form).join(REDACTED), text)
    return tokens === undefined ? scrubbed : scrubbed.replace(tokens, REDACTED)
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

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
 * The authentication schemes an `Authorization` value may start with (IANA's registry, and the
 * `Token` and `ApiKey` many APIs use): the one word of a credential header a journal may show.
 */
const AUTH_SCHEMES: ReadonlySet<string> = new Set(
  ['basic', 'bearer', 'digest', 'dpop', 'gnap', 'hoba', 'mutual', 'negotiate', 'ntlm', 'oauth', 'privatetoken', 'scram-sha-1', 'scram-sha-256', 'vapid', 'token', 'apikey', 'aws4-hmac-sha256', 'concealed'],
)

/** The scheme a credential header's value starts with, as sent (`Bearer `), when it is a known one. */
export function authSchemeOf(value: string): string | undefined {
  const scheme = /^[A-Za-z][A-Za-z0-9-]{0,19} /.exec(value)?.[0]
  return scheme !== undefined && AUTH_SCHEMES.has(scheme.trim().toLowerCase()) ? scheme : undefined
}

/**
 * A credential header's words are each a credential only while it has this many: `Bearer k` is two,
 * Digest's parameters a few. A value of more words is a credential whole and after its scheme.
 */
export const MAX_CREDENTIAL_WORDS = 8

/**
 * The most credentials one request is taken to carry. Past it, whatever shows the request is
 * redacted whole (`createScrubber`): scrubbing a request of a thousand credentials from
 * everything it sent would cost a reader seconds.
 */
export const MAX_CREDENTIALS = 64

/**
 * Every credential a request carried, each in the forms an answer may echo: a credential header's
 * value whole, after a known scheme, and each of its words (all of them when it starts with no
 * known scheme: `real KEY` gives `real` too), each cookie's value, and the value of each
 * credential-like query parameter.
 * @example credentialsOf({ headers: { authorization: 'Bearer k-1' }, search: 'api_key=q-2' }) // ['Bearer k-1', 'k-1', 'q-2']
 */
export function credentialsOf(request: { readonly headers: Fields; readonly search: string }): string[] {
  const found = new Set<string>()
  const add = (value: string): void => {
    const trimmed = value.trim()
    // Punctuation alone (a stray `;`) is no credential, nor a scheme sent without one (`Bearer `).
    if (/[A-Za-z0-9]/.test(trimmed) && !AUTH_SCHEMES.has(trimmed.toLowerCase())) found.add(trimmed)
  }
  for (const [name, value] of Object.entries(request.headers)) {
    if (!CREDENTIAL_HEADER.test(name)) continue
    add(value)
    if (name === 'cookie') {
      for (const pair of value.split(';')) add(pair.slice(pair.indexOf('=') + 1))
      continue
    }
    const trimmed = value.trim()
    const scheme = authSchemeOf(trimmed)
    if (scheme !== undefined) add(trimmed.slice(scheme.length))
    // Split no further than needed to know the value has too many words.
    const words = trimmed.split(/\s+/, MAX_CREDENTIAL_WORDS + 1)
    if (words.length <= MAX_CREDENTIAL_WORDS) for (const word of scheme === undefined ? words : words.slice(1)) add(word)
  }
  if (request.search !== '') for (const [name, value] of new URLSearchParams(request.search)) if (CREDENTIAL_PARAM.test(name)) add(value)
  return [...found]
}

/**
 * The scrubber of one request's credentials (see `createScrubber`), made once for requests that
 * carry the same credentials (see `knownCredentials`): a journal scrubs every request it keeps.
 */
export function scrubberOfRequest(request: { readonly headers: Fields; readonly search: string }): Scrubber {
  return knownCredentials(request)?.scrub() ?? keepText
}

const keepText: Scrubber = (text) => text

/** The most characters a spelling takes for one character of a credential: a 4-byte one percent-encoded. */
const SPELLING_CHARS_PER_CHAR = 12

/** How many characters the longest spelling of a request's credentials can take; 0 when it carries none. */
export function spellingReach(request: { readonly headers: Fields; readonly search: string }): number {
  let longest = 0
  for (const credential of knownCredentials(request)?.credentials ?? []) longest = Math.max(longest, credential.length)
  return longest * SPELLING_CHARS_PER_CHAR
}

function redactWhole(text: string): string {
  return text === '' ? text : REDACTED
}

type KnownCredentials = { readonly credentials: readonly string[]; readonly scrub: () => Scrubber }

/**
 * The credentials of requests that carried the same credential headers and query, with their
 * scrubber once one was needed, by those values: a server's requests mostly repeat one key, and a
 * log line is written for every one. At most `RECENT_CREDENTIALS` sets are kept, then all are forgotten.
 */
const recentCredentials = new Map<string, KnownCredentials>()

/** How many requests' credential sets `scrubRequestText` and `scrubberOfRequest` remember. */
export const RECENT_CREDENTIALS = 256

/** Whether a header name says it carries a credential, remembered per name (names repeat). */
const credentialNames = new Map<string, boolean>()
function isCredentialName(name: string): boolean {
  let found = credentialNames.get(name)
  // Stryker disable next-line ConditionalExpression: a cache; a name tested again gives the same answer
  if (found === undefined) {
    if (credentialNames.size >= RECENT_CREDENTIALS) credentialNames.clear()
    found = CREDENTIAL_HEADER.test(name)
    credentialNames.set(name, found)
  }
  return found
}

/**
 * `text` (a log line's path) scrubbed of the request's credentials. Run on every request, so it
 * costs little when the text holds none: the credentials of a set of credential headers and query
 * seen a moment ago are remembered, and the scrubber is made only when the text holds one as
 * written, or holds an escape (`%`, `+`, `\\`) that might spell one otherwise.
 */
export function scrubRequestText(text: string, request: { readonly headers: Fields; readonly search: string }): string {
  const known = knownCredentials(request)
  if (known === undefined) return text
  const { credentials, scrub } = known
  return ESCAPES.test(text) || credentials.some((credential) => text.includes(credential)) ? scrub()(text) : text
}

/** A request's credentials and their scrubber, remembered by its credential headers and query; undefined when it carries none. */
function knownCredentials(request: { readonly headers: Fields; readonly search: string }): KnownCredentials | undefined {
  let key = CREDENTIAL_PARAM.test(request.search) ? `?${request.search}` : ''
  for (const name in request.headers) if (isCredentialName(name)) key += `\n${name}\n${request.headers[name]}`
  if (key === '') return undefined
  let known = recentCredentials.get(key)
  if (known === undefined) {
    if (recentCredentials.size >= RECENT_CREDENTIALS) recentCredentials.clear()
    const credentials = credentialsOf(request)
    known = { credentials, scrub: lazily(() => createScrubber(credentials)) }
    recentCredentials.set(key, known)
  }
  return known
}

/** `make()`'s value, made the first time it is asked for. */
function lazily<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined
  return () => (made ??= { value: make() }).value
}

/** The characters that start another spelling of a character in a request's text. */
const ESCAPES = /[%+\\]/

/**
 * Credentials this long are replaced wherever they appear. A shorter one is replaced only where it
 * stands as a whole word: a one-letter key replaced inside every word would garble the text and,
 * by what went missing, tell the key.
 */
const ANYWHERE_FROM = 8

/** The characters a word is made of (RFC 3986's unreserved): `/`, `+` and `=` end one, as in a path. */
const WORD_CHARS = 'A-Za-z0-9\\-._~'

/**
 * A scrubber that replaces each credential with `[redacted]` in every spelling a request may
 * repeat it in, character by character and mixed (up to `MIXED_UP_TO` characters; a longer one
 * in each of its whole spellings): as written, percent-encoded in either case
 * (`%7e`, `%7E`), `+` for a space, and JSON-escaped (`\\u007e`, `\\"`); anywhere when it has 8
 * characters or more, as a whole word when shorter. Empty and missing ones are skipped. Apply it to
 * what came from outside (values, paths, records), not to prose of our own. Past
 * `MAX_CREDENTIALS`, it replaces every non-empty text whole.
 * @example createScrubber(['k-123456'])('Bearer k-123456') // 'Bearer [redacted]'
 * @example createScrubber(['tilde~key'])('/v1/pets/tilde%7ekey') // '/v1/pets/[redacted]'
 * @example createScrubber(['a'])('{"name":"a","status":"available"}') // '{"name":"[redacted]","status":"available"}'
 */
export function createScrubber(credentials: readonly (string | undefined)[]): Scrubber {
  if (credentials.length > MAX_CREDENTIALS) return redactWhole
  // Longest first, so a credential that contains another is replaced whole.
  const given = [...new Set(credentials)].filter((credential): credential is string => credential !== undefined && credential !== '').sort((a, b) => b.length - a.length)
  if (given.length === 0) return (text) => text
  const each = given.map(scrubberOfCredential)
  return each.length === 1 ? (each[0] as Scrubber) : (text) => each.reduce((scrubbed, scrub) => scrub(scrubbed), text)
}

/**
 * The scrubbers of credentials up to `MIXED_UP_TO` characters, by credential: each is a pattern
 * that takes about a millisecond to make, and requests that carry different sets of credentials
 * mostly share some (a team's key beside a request's own token). At most `RECENT_CREDENTIALS`.
 */
const credentialScrubbers = new Map<string, Scrubber>()

/** One credential's scrubber: a pattern of its mixed spellings, or the plain strings of a long one's whole spellings. */
function scrubberOfCredential(credential: string): Scrubber {
  if (credential.length > MIXED_UP_TO) {
    // Made afresh for each request (kept, a long credential's spellings would hold megabytes), and
    // only for a text that can hold one: no spelling is shorter than the credential, and most texts
    // (a path, a header) are. The set flattens each once (a search with a string built by
    // concatenation flattened it on every text: 6 ms an entry of a journal read, mostly collection).
    const forms = lazily(() => [...new Set(wholeSpellings(credential))].sort((a, b) => b.length - a.length))
    return (text) => (text.length < credential.length ? text : forms().reduce((scrubbed, form) => scrubbed.replaceAll(form, REDACTED), text))
  }
  let found = credentialScrubbers.get(credential)
  if (found === undefined) {
    if (credentialScrubbers.size >= RECENT_CREDENTIALS) credentialScrubbers.clear()
    const spelled = spellings(credential)
    const pattern = new RegExp(credential.length >= ANYWHERE_FROM ? spelled : `(?<![${WORD_CHARS}])(?:${spelled})(?![${WORD_CHARS}])`, 'g')
    found = (text) => text.replace(pattern, REDACTED)
    credentialScrubbers.set(credential, found)
  }
  return found
}

/**
 * The longest credential matched in spellings mixed character by character. A pattern of a form
 * per character grows with the credential: one of 4,096 characters took 105 ms to make and match
 * once, one of 8,192 overflowed V8's stack. A longer one (a JWT, a made-up 15 KB test key) is
 * replaced in each of its whole spellings as plain strings (`wholeSpellings`), nothing to compile.
 */
export const MIXED_UP_TO = 64

/**
 * The whole spellings of `credential`: as written; percent-encoded as `encodeURIComponent` does,
 * and with its `!'()*~` encoded too, each in upper- and lower-case hex and with `+` for a space (a
 * form); JSON-escaped, with `/` as written or as `\/`. Not mixtures of them: long credentials
 * (base64url, JWTs) are mostly characters no encoding touches.
 */
function wholeSpellings(credential: string): string[] {
  const encoded = encodeURIComponent(credential)
  const strict = encoded.replace(/[!'()*~]/g, (char) => `%${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}`)
  // Lower-case hex only where an escape has a letter (a key of spaces alone is all `%20`).
  const cases = [encoded, strict].flatMap((form) => (/%[0-9A-F]?[A-F]/.test(form) ? [form, form.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())] : [form]))
  const json = JSON.stringify(credential).slice(1, -1)
  return [credential, ...cases, ...cases.map((form) => form.replaceAll('%20', '+')), json, json.replaceAll('/', '\\/')]
}

/** A pattern of every spelling of `credential`: each character in any of its forms. */
function spellings(credential: string): string {
  let pattern = ''
  for (const char of credential) pattern += `(?:${formsOf(char).join('|')})`
  return pattern
}

const utf8 = new TextEncoder()

/** One character's forms: itself, its UTF-8 bytes percent-encoded, `+` for a space, its JSON escapes. */
function formsOf(char: string): string[] {
  const forms = [escapeRegExp(char), Array.from(utf8.encode(char), (byte) => `%${hexDigits(byte, 2)}`).join('')]
  if (char === ' ') forms.push('\\+')
  // A character past the 16-bit plane is two escapes in JSON, of its surrogates: left as written.
  if (char.length === 1) forms.push(`\\\\u${hexDigits(char.charCodeAt(0), 4)}`)
  if (char === '"' || char === '\\' || char === '/') forms.push(`\\\\${escapeRegExp(char)}`)
  return forms
}

/** A number's hexadecimal digits, `width` of them, each letter matched in either case. */
function hexDigits(value: number, width: number): string {
  return value
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

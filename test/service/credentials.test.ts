import { expect, it } from 'vitest'
import { authSchemeOf, createScrubber, credentialsOf, MAX_CREDENTIAL_WORDS, MAX_CREDENTIALS, MIXED_UP_TO, RECENT_CREDENTIALS, REDACTED, scrubRequestText } from '../../src/service/credentials.js'

it('knows every credential a request carried: a credential header whole and each word after its scheme, each cookie, each credential-like query value', () => {
  const found = credentialsOf({
    headers: {
      authorization: 'Bearer sekrit-1',
      'x-api-key': 'RAWKEY-2',
      cookie: 'session=COOKIE-3; theme=dark',
      'content-type': 'application/json',
      'x-trace': 'not-a-secret',
    },
    search: 'api_key=QUERY-4&access_token=QUERY-5&limit=5',
  })
  expect(found).toEqual(['Bearer sekrit-1', 'sekrit-1', 'RAWKEY-2', 'session=COOKIE-3; theme=dark', 'COOKIE-3', 'dark', 'QUERY-4', 'QUERY-5'])
  // A key sent without a scheme is one word, itself; a scheme alone, or punctuation, is none.
  expect(credentialsOf({ headers: { authorization: ' RAWKEY ' }, search: '' })).toEqual(['RAWKEY'])
  expect(credentialsOf({ headers: { authorization: 'Bearer ', cookie: ';' }, search: 'token=' })).toEqual([])
  // Only the scheme's own name is no credential: a key that ends or begins like one still is.
  expect(credentialsOf({ headers: { 'x-api-key': 'notbasic' }, search: 'token=bearer2' })).toEqual(['notbasic', 'bearer2'])
  // A value given with spaces around it (the in-code API takes any) still has its scheme first.
  expect(credentialsOf({ headers: { authorization: ' Token tok-9 ' }, search: '' })).toEqual(['Token tok-9', 'tok-9'])
})

it('replaces a credential of 8 characters or more wherever it stands, as written and percent-encoded, longest first', () => {
  const scrub = createScrubber(['sekrit-key-123', 'a b/c=d+e!', 'sekrit-key-1234', undefined, ''])
  expect(scrub('name "Bearer sekrit-key-1234", echoed xsekrit-key-123y')).toBe(`name "Bearer ${REDACTED}", echoed x${REDACTED}y`)
  expect(scrub('/pets?q=a%20b%2Fc%3Dd%2Be!&r=a b/c=d+e!')).toBe(`/pets?q=${REDACTED}&r=${REDACTED}`)
})

it('replaces a shorter credential only where it stands as a whole word, so a one-letter key garbles nothing', () => {
  const scrub = createScrubber(['a', 's3cret'])
  expect(scrub('{"name":"a","status":"available"}')).toBe(`{"name":"${REDACTED}","status":"available"}`)
  expect(scrub('Bearer a; a/pets/a?x=a')).toBe(`Bearer ${REDACTED}; ${REDACTED}/pets/${REDACTED}?x=${REDACTED}`)
  expect(scrub('mkdir /tmp/s3cret/r.json, not s3crets nor xs3cret')).toBe(`mkdir /tmp/${REDACTED}/r.json, not s3crets nor xs3cret`)
  // Characters a regular expression would read are matched as written.
  expect(createScrubber(['a.b'])('a.b axb')).toBe(`${REDACTED} axb`)
})

it('takes a credential header\'s words one by one only after a known scheme, or all of them when it starts with none', () => {
  expect(credentialsOf({ headers: { authorization: 'real KEY-abcdef123' }, search: '' })).toEqual(['real KEY-abcdef123', 'real', 'KEY-abcdef123'])
  expect(credentialsOf({ headers: { authorization: 'Digest user="u", nonce="n"' }, search: '' })).toEqual(['Digest user="u", nonce="n"', 'user="u", nonce="n"', 'user="u",', 'nonce="n"'])
  expect(authSchemeOf('Bearer k')).toBe('Bearer ')
  expect(authSchemeOf('SCRAM-SHA-256 k')).toBe('SCRAM-SHA-256 ')
  expect(authSchemeOf('real k')).toBeUndefined()
  expect(authSchemeOf('Bearer')).toBeUndefined()
})

it(`scrubs a header of more than ${MAX_CREDENTIAL_WORDS} words whole and after its scheme, not word by word`, () => {
  const words = Array.from({ length: MAX_CREDENTIAL_WORDS }, (_, i) => `w${i}-word`)
  expect(credentialsOf({ headers: { 'x-api-key': words.join(' ') }, search: '' })).toEqual([words.join(' '), ...words])
  const more = [...words, 'w8-word']
  expect(credentialsOf({ headers: { 'x-api-key': more.join(' ') }, search: '' })).toEqual([more.join(' ')])
  expect(credentialsOf({ headers: { authorization: `Bearer ${more.join(' ')}` }, search: '' })).toEqual([`Bearer ${more.join(' ')}`, more.join(' ')])
})

it(`redacts whatever it is given whole past ${MAX_CREDENTIALS} credentials, and scrubs as usual at exactly that many`, () => {
  const many = Array.from({ length: MAX_CREDENTIALS + 1 }, (_, i) => `credential-${i}-x`)
  expect(createScrubber(many)('/v1/pets/7')).toBe(REDACTED)
  expect(createScrubber(many)('')).toBe('')
  expect(createScrubber(many.slice(1))('/v1/pets/7 credential-1-x')).toBe(`/v1/pets/7 ${REDACTED}`)
})

it('scrubs a log line\'s path of the request\'s credentials, and leaves one that holds none as it is', () => {
  const request = { headers: { authorization: 'Bearer real-KEY-abcdef123', cookie: 'session=cookie-VALUE-1' }, search: 'api_key=query-KEY-9' }
  expect(scrubRequestText('/v1/pets/real-KEY-abcdef123', request)).toBe(`/v1/pets/${REDACTED}`)
  expect(scrubRequestText('/v1/pets/cookie-VALUE-1', request)).toBe(`/v1/pets/${REDACTED}`)
  expect(scrubRequestText('/v1/pets/query-KEY-9', request)).toBe(`/v1/pets/${REDACTED}`)
  expect(scrubRequestText('/v1/pets/a%20b%2Fc', { headers: { 'x-api-key': 'a b/c' }, search: '' })).toBe(`/v1/pets/${REDACTED}`)
  const plain = '/v1/pets/7'
  expect(scrubRequestText(plain, request)).toBe(plain)
})

it(`scrubs the same for a credential set seen before, and past ${RECENT_CREDENTIALS} remembered sets`, () => {
  const request = (key: string) => ({ headers: { authorization: `Bearer ${key}`, accept: '*/*' }, search: '' })
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i <= RECENT_CREDENTIALS; i++) {
      const key = `key-number-${i}`
      expect(scrubRequestText(`/v1/pets/${key}`, request(key))).toBe(`/v1/pets/${REDACTED}`)
      expect(scrubRequestText('/v1/pets/7', request(key))).toBe('/v1/pets/7')
    }
  }
  // A request with no credential header and no credential-like query: nothing to look for.
  expect(scrubRequestText('/v1/pets/abc', { headers: { accept: '*/*' }, search: 'limit=1' })).toBe('/v1/pets/abc')
  expect(scrubRequestText('/v1/pets/query-secret-9', { headers: {}, search: 'token=query-secret-9' })).toBe(`/v1/pets/${REDACTED}`)
})

it('scrubs a credential in every spelling a request repeats it in: percent-encoded in either case, + for a space, JSON-escaped, and mixed', () => {
  const key = 'tilde~key~0123 "q"/\\é'
  const scrub = createScrubber([key])
  const spelled = [
    key,
    'tilde%7ekey%7e0123%20%22q%22%2F%5C%C3%A9',
    'tilde%7Ekey%7E0123+%22q%22/%5c%c3%a9',
    'tilde\\u007ekey\\u007E0123 \\"q\\"\\/\\\\\\u00e9',
    JSON.stringify(key).slice(1, -1),
    encodeURIComponent(key),
    new URLSearchParams({ ref: key }).toString().slice('ref='.length),
    't%69lde~key%7e0123\\u0020"q"/\\\\é',
  ]
  for (const text of spelled) expect(scrub(`<${text}>`)).toBe(`<${REDACTED}>`)
  // Not a spelling of it: a byte changed, or an escape of another character.
  expect(scrub('tilde%7fkey~0123 "q"/\\é')).toBe('tilde%7fkey~0123 "q"/\\é')
  // A short one, encoded, is still a whole word only.
  expect(createScrubber(['a~b'])('a%7Eb xa%7eby')).toBe(`${REDACTED} xa%7eby`)
  // A character past the 16-bit plane is matched as written and percent-encoded.
  expect(createScrubber(['key-🦊-tail'])(`/${encodeURIComponent('key-🦊-tail')} key-🦊-tail`)).toBe(`/${REDACTED} ${REDACTED}`)
})

it('scrubs a log line\'s path of a key it repeats percent-encoded, whatever the case, though the path holds the key in no other form', () => {
  const request = { headers: { authorization: 'Bearer tilde~key~0123456' }, search: '' }
  expect(scrubRequestText('/v1/pets/tilde%7ekey%7E0123456', request)).toBe(`/v1/pets/${REDACTED}`)
  expect(scrubRequestText('/v1/pets/tilde%7Ekey%7e0123456', request)).toBe(`/v1/pets/${REDACTED}`)
  expect(scrubRequestText('/v1/pets/a%20b', request)).toBe('/v1/pets/a%20b')
})

it(`scrubs a credential longer than ${MIXED_UP_TO} characters in each whole spelling, up to a 16 KB one, at once; one of ${MIXED_UP_TO} still in mixed spellings`, () => {
  // A key of 1,500 words (15 KB), as a test makes up: its per-character pattern overflowed V8's stack.
  const long = Array.from({ length: 1500 }, (_, word) => `w${(word * 104_729).toString(36)}~(x)`).join(' ').slice(0, 15_000)
  const made = performance.now()
  const scrub = createScrubber([long])
  const spelled = [
    long,
    encodeURIComponent(long),
    encodeURIComponent(long).toLowerCase(),
    new URLSearchParams({ ref: long }).toString().slice('ref='.length),
    new URLSearchParams({ ref: long }).toString().slice('ref='.length).toLowerCase(),
    encodeURIComponent(long).replace(/[~()]/g, (char) => `%${char.charCodeAt(0).toString(16)}`),
    JSON.stringify(long).slice(1, -1),
  ]
  for (const text of spelled) expect(scrub(`<${text}>`)).toBe(`<${REDACTED}>`)
  expect(performance.now() - made).toBeLessThan(1000)
  expect(scrub(`<${long.slice(1)}>`)).toBe(`<${long.slice(1)}>`)
  // At the bound, mixed spellings as for any shorter key; one past it, whole spellings.
  const atBound = `tilde~${'k'.repeat(MIXED_UP_TO - 6)}`
  expect(atBound).toHaveLength(MIXED_UP_TO)
  expect(createScrubber([atBound])(`/${atBound.replace('~', '%7e')}`)).toBe(`/${REDACTED}`)
  expect(createScrubber([`${atBound}k`])(`/${encodeURIComponent(`${atBound}k`).replace('~', '%7e')}`)).toBe(`/${REDACTED}`)
})

import { LosslessNumber } from 'lossless-json'
import { expect, it } from 'vitest'
import { isJsonContentType, parseJsonBody, parseJsonText, readQuickly } from '../../src/service/json-body.js'
import { plainRequest } from '../support/core-fake.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const jsonPost = (body: Uint8Array, contentType = 'application/json') =>
  plainRequest({ method: 'POST', headers: { 'content-type': contentType }, body })

it('names JSON by media type whatever its case, with any parameters and +json suffixes, and only in UTF-8', () => {
  const accepted = [
    'application/json',
    'application/json;charset="UTF-8"',
    'application/problem+json',
    'APPLICATION/JSON',
    'Application/Vnd.Animals+JSON; Charset=UTF-8',
    'application/json; version=2; charset=utf8',
    'application/json ; charset = "utf-8" ',
  ]
  const refused = ['application/json; charset=utf-16', 'application/json; charset', 'application/json; charset=latin1', 'text/json', 'text/vnd.animals+json', 'application/jsonx']
  expect(accepted.filter((type) => !isJsonContentType(type))).toEqual([])
  expect(refused.filter(isJsonContentType)).toEqual([])
})

it('refuses a missing body saying what was expected, and a body past the limit saying the limit', () => {
  const missing = parseJsonBody(jsonPost(new Uint8Array(0)))
  expect(missing).toEqual({ ok: false, error: { code: 'missing_body', message: 'A request body is required: a JSON object with name and categoryId.' } })
  const tooLarge = parseJsonBody(jsonPost(bytes('[1,2]')), { limit: 4 })
  expect(tooLarge).toEqual({ ok: false, error: { code: 'payload_too_large', message: 'The request body is larger than 4 bytes.' } })
})

it('reads a body of exactly the limit', () => {
  expect(parseJsonBody(jsonPost(bytes('[1,2]')), { limit: 5 })).toEqual({ ok: true, value: [1, 2] })
})

it('cuts the parser\'s reason at 160 characters with an ellipsis, and leaves a shorter one whole', () => {
  const reasonFor = (key: string) => {
    const read = parseJsonBody(jsonPost(bytes(`{"${key}":1,"${key}":2}`)))
    if (read.ok) throw new Error('a repeated key was accepted')
    return read.error.message.replace(/^The request body is not valid JSON: /, '').replace(/\.$/, '')
  }
  const long = reasonFor('a'.repeat(300))
  expect(long).toBe(`Duplicate key '${'a'.repeat(145)}…`)
  expect(long).toHaveLength(161)
  expect(reasonFor('b')).toBe("Duplicate key 'b' encountered at position 8")
  const exactly = reasonFor('c'.repeat(116))
  expect(exactly).toBe(`Duplicate key '${'c'.repeat(116)}' encountered at position 123`)
  expect(exactly).toHaveLength(160)
})

it('says when a body is nested too deeply to read', () => {
  const deep = parseJsonBody(jsonPost(bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)))
  expect(deep).toEqual({ ok: false, error: { code: 'malformed_json', message: 'The request body is not valid JSON: it is nested too deeply.' } })
})

it('refuses a repeated key with another value wherever the colon stands', () => {
  for (const text of ['{"name":"a", "name" :"b"}', '{"name" :"a","name":"b"}', '{"name"\t\n\r :"a","name":"b"}']) {
    expect(() => parseJsonText(text), text).toThrow(/Duplicate key 'name'/)
  }
})

it('keeps numbers that a double would round, the point and the exponent counted', () => {
  // Nine digits either side of the point: JSON.parse says 100000000, which would pass as an integer.
  for (const text of ['100000000.000000001', '1e309', '1E309']) {
    expect(parseJsonText(text), text).toBeInstanceOf(LosslessNumber)
  }
})

it('reads ordinary bodies the quick way', () => {
  for (const text of [
    '{"name":"Rex","categoryId":3,"status":"sold","tags":["true","e"]}',
    '{"name" : "a:b", "n": 123456789012345, "x": 1.25, "deep": {"k": [true, false, null]}}',
    '"quoted: text"',
  ]) {
    expect(readQuickly(text), text).toEqual({ value: JSON.parse(text) })
  }
})

it('leaves long numbers, exponents, repeated keys and malformed text to the exact reader', () => {
  for (const text of ['1234567890123456', '12345678901234.5', '2e3', '2E3', '{"a":1,"a":1}', '{"a":1,"b":{"a":2,"a":2}}', '{"a":']) {
    expect(readQuickly(text), text).toBeUndefined()
  }
})

import { expect, it } from 'vitest'
import { leadLine } from '../../src/verify/lead-line.js'
import type { Mismatch } from '../../src/verify/results.js'

const lead = (...mismatches: Mismatch[]) => leadLine({ mismatches })

it('leads with the status when it differs, citing the spec for the status the pact expects', () => {
  expect(lead({ kind: 'body', key: '$.name', message: 'x' }, { kind: 'status', message: 'expected 404 but was 200' })).toBe(
    'the deployment answered 200 where the pact expects 404 (spec 7: "When GET /pets/{petId} names an unknown animal, then the response is 404.")',
  )
  expect(lead({ kind: 'status', message: 'expected 400 but was 201', expected: '400', actual: '201' })).toContain('(spec 4.2: "400 | Error |')
  // A status the spec gives no sentence of its own: no citation.
  expect(lead({ kind: 'status', message: 'expected 200 but was 500' })).toBe('the deployment answered 500 where the pact expects 200')
})

it('names the body field that differs and the spec sentence of that field', () => {
  expect(lead({ kind: 'body', key: '$[0].id', message: 'Expected 1 but got "1"', expected: '1', actual: '"1"' })).toBe(
    'the body differs at $[0].id: the deployment sent "1" where the pact expects 1 (spec 2: "id | integer | int64 | yes | Unique identifier assigned by the service on creation")',
  )
  expect(lead({ kind: 'body', key: '$.categoryId', message: 'x', expected: '1', actual: '"a"' })).toContain('(spec 2: "categoryId |')
  expect(lead({ kind: 'body', key: '$.code', message: 'x' })).toContain('(spec 7: "Every error response carries the Error body')
  // `status` in a body: the Error body's number, or a Pet's PetStatus.
  expect(lead({ kind: 'body', key: '$.status', message: 'x', expected: '404', actual: '400' })).toContain('(spec 7: "Every error response')
  expect(lead({ kind: 'body', key: '$.status', message: 'x', expected: '"sold"', actual: '"lost"' })).toContain('(spec 2: "status | PetStatus')
  expect(lead({ kind: 'body', key: '$', message: 'Actual map is missing the following keys: status', expected: '["code","message","status"]' })).toBe(
    'the body at $ lacks status, which the pact expects (spec 7: "Every error response carries the Error body (`code`, `message`, `status`); `status` repeats the HTTP status code.")',
  )
  expect(lead({ kind: 'body', key: '$.other', message: 'x' })).toBe('the body differs at $.other: the deployment sent something else where the pact expects another value')
  // A list too short: the counts, not the lists (Pact's detail below keeps them).
  const placeholders = JSON.stringify(Array(20).fill({ id: 1, name: 'Bella', categoryId: 1 }))
  expect(lead({ kind: 'body', key: '$', message: `Expected [${'x'.repeat(500)}] (size 10) to have minimum size of 20`, expected: placeholders, actual: '[]' })).toBe(
    'the deployment listed 10 animals where the pact expects at least 20 (spec 4.1: "limit | integer | no | minimum 1, maximum 100, default 20 | Maximum number of animals returned")',
  )
  // A long value is cut at 80 characters in the lead.
  expect(lead({ kind: 'body', key: '$.name', message: 'x', expected: 'a'.repeat(100), actual: 'b' })).toBe(
    `the body differs at $.name: the deployment sent b where the pact expects ${'a'.repeat(79)}… (spec 2: "name | string | - | yes | The animal's name")`,
  )
})

it('says what a header, a provider state or another part did, and when the verifier gave nothing', () => {
  expect(lead({ kind: 'header', key: 'Sunset', message: 'x', expected: '"Thu, 05 Dec 2030 00:00:00 GMT"' })).toBe(
    'the header Sunset differs: the deployment sent none where the pact expects "Thu, 05 Dec 2030 00:00:00 GMT"',
  )
  expect(lead({ kind: 'state', message: 'refused' })).toBe('the animals the interaction needs could not be set up through the public API')
  expect(lead({ kind: 'query', key: 'limit', message: 'Expected "3" but was "4"' })).toBe('the query differs: Expected "3" but was "4"')
  expect(lead()).toBe('the verifier failed it without saying why')
})

it('shows a value of exactly 80 characters whole, and says "?" or "$" where Pact gave no status or path', () => {
  expect(lead({ kind: 'body', key: '$.name', message: 'x', expected: 'a'.repeat(80), actual: 'b' })).toContain(`expects ${'a'.repeat(80)} (spec`)
  expect(lead({ kind: 'status', message: 'the status differed' })).toBe('the deployment answered ? where the pact expects ?')
  expect(lead({ kind: 'body', message: 'Actual map is missing the following keys: name' })).toBe(
    `the body at $ lacks name, which the pact expects (spec 2: "name | string | - | yes | The animal's name")`,
  )
  expect(lead({ kind: 'body', message: 'differs', actual: '1' })).toBe('the body differs at $: the deployment sent 1 where the pact expects another value')
  expect(lead({ kind: 'header', message: 'x' })).toBe('the header  differs: the deployment sent none where the pact expects another value')
  // Only a whole number (or an object with a code) is the Error body's status.
  expect(lead({ kind: 'body', key: '$.status', message: 'x', expected: '"404x"' })).toContain('(spec 2: "status | PetStatus')
  expect(lead({ kind: 'body', key: '$.status', message: 'x', expected: 'x404' })).toContain('(spec 2: "status | PetStatus')
  expect(lead({ kind: 'body', key: '$.status', message: 'x' })).toContain('(spec 2: "status | PetStatus')
  expect(lead({ kind: 'header', key: 'Location', message: 'x', expected: '/pets/1' })).not.toContain('spec')
})

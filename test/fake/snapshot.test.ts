import { coreOf } from '../../src/fake/assemble-fake.js'
import { describe, expect, it } from 'vitest'
import { createControl } from '../../src/fake/control.js'
import { MAX_RECORD_CHARS, parseSnapshotGradually } from '../../src/fake/snapshot.js'
import type { Pet } from '../../src/spec/animals-service.js'
import { createTestFake, plainRequest } from '../support/core-fake.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const pet = (id: number) => ({ id, name: `pet ${id}`, categoryId: 1 })

async function read(text: string | Uint8Array, maxAnimals = 10) {
  let pauses = 0
  const parsed = await parseSnapshotGradually(typeof text === 'string' ? bytes(text) : text, {
    maxAnimals,
    pause: async () => {
      pauses += 1
    },
  })
  return { result: parsed.ok ? parsed.value : parsed.error, pauses }
}

it('reads an empty snapshot and one with spaces, tabs and line breaks between records', async () => {
  expect((await read('[]')).result).toEqual([])
  expect((await read(' \t\r\n[ \n]\n ')).result).toEqual([])
  const text = `\n[\t${JSON.stringify(pet(1))} ,\r\n ${JSON.stringify(pet(2))}\n]\n`
  expect((await read(text)).result).toEqual([pet(1), pet(2)])
  // Nesting of exactly 8 (the record and seven arrays) is read; one more is refused below.
  expect((await read(`[{"id": 1, "name": "pet 1", "categoryId": 1, "x": ${'['.repeat(7)}${']'.repeat(7)}}]`)).result).toEqual([pet(1)])
})

it('refuses a malformed snapshot at its first bad record, saying which and why', async () => {
  const one = JSON.stringify(pet(1))
  const cases: [string, string | RegExp][] = [
    ['{}', 'a snapshot must be a JSON array of animals'],
    ['', 'a snapshot must be a JSON array of animals'],
    ['[] x', 'text after the closing ]'],
    [`[${one}] []`, 'text after the closing ]'],
    ['[1]', 'record 1 (index 0): must be a JSON object'],
    [`[${one}, "x"]`, 'record 2 (index 1): must be a JSON object'],
    [`[${one} ${one}]`, 'after record 1 (index 0): expected , or ]'],
    ['[{"id": 1, "name": "a", "categoryId": 1,}]', /^record 1 \(index 0\): not valid JSON \(.*position 39.*\)$/],
    ['[{"id": 1, "name": "a"', 'record 1 (index 0): not valid JSON (it does not end)'],
    [`[{"a": ${'['.repeat(8)}${']'.repeat(8)}}]`, 'record 1 (index 0): nested more than 8 deep'],
    ['[{"id": 1, "name": "a", "categoryId": "one"}]', "record 1 (index 0): Field 'categoryId' must be a 64-bit integer."],
    [`[${one}, ${JSON.stringify(pet(3))}, ${one}]`, "record 3 (index 2): field 'id' repeats id 1"],
  ]
  for (const [text, message] of cases) {
    if (typeof message === 'string') expect((await read(text)).result, text).toBe(message)
    else expect((await read(text)).result, text).toMatch(message)
  }
  // A name written in Latin-1, not UTF-8, is refused rather than read with a replacement character.
  const latin1 = new Uint8Array([...bytes('[{"id": 1, "categoryId": 1, "name": "Caf'), 0xe9, ...bytes('"}]')])
  expect((await read(latin1)).result).toMatch(/^record 1 \(index 0\): not valid JSON \(.+\)$/)
})

it('refuses a record over its size limit, and more animals than the store may hold, as soon as it sees them', async () => {
  const long = `[{"id": 1, "categoryId": 1, "name": "${'n'.repeat(MAX_RECORD_CHARS)}"}]`
  expect((await read(long)).result).toBe(`record 1 (index 0): longer than ${MAX_RECORD_CHARS} bytes`)
  const three = JSON.stringify([pet(1), pet(2), pet(3)])
  expect((await read(three, 3)).result).toHaveLength(3)
  expect((await read(three, 2)).result).toBe('more than the maximum of 2 animals')
})

it('pauses after every 500 records', async () => {
  const pets = Array.from({ length: 1001 }, (_, i) => pet(i + 1))
  const { result, pauses } = await read(JSON.stringify(pets), 2000)
  expect(result).toHaveLength(1001)
  expect(pauses).toBe(2)
})

it('reads records out of id order, and braces, brackets and escaped quotes inside names', async () => {
  const odd = { id: 2, name: 'a\\"}]{[ "b', categoryId: 1 }
  expect(JSON.parse(JSON.stringify(odd.name))).toBe(odd.name)
  // A closing brace in a name with no escape before it: a scan that lost track of strings ends the record there.
  const plain = { id: 4, name: 'x}]y', categoryId: 1 }
  const text = JSON.stringify([odd, pet(1), pet(3), plain])
  expect((await read(text)).result).toEqual([odd, pet(1), pet(3), plain])
})

it('reads a record of exactly the size limit, and refuses one byte more', async () => {
  // Padded with spaces: a name that long would be refused for its own length.
  const record = (size: number) => {
    const bare = '{"id": 1, "categoryId": 1, "name": "a"}'
    return `{"id": 1, "categoryId": 1, "name": "a"${' '.repeat(size - bare.length)}}`
  }
  expect((await read(`[${record(MAX_RECORD_CHARS)}]`)).result).toHaveLength(1)
  expect((await read(`[${record(MAX_RECORD_CHARS + 1)}, 1]`)).result).toBe(`record 1 (index 0): longer than ${MAX_RECORD_CHARS} bytes`)
})

describe('a snapshot whose text ends inside a string', () => {
  const pets: Pet[] = [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]

  it('refuses a snapshot whose text ends inside a string with 400, saying it does not end, and keeps the animals it had', async () => {
    const fake = createTestFake({ pets })
    const api = createControl({ core: coreOf(fake) })
    // Cut off in a name, just after a backslash, and after an escaped quote that closes nothing.
    for (const text of ['[{"id":1,"name":"Rex', '[{"id":1,"name":"Rex\\', '[{"id":1,"name":"Rex\\"}]']) {
      const response = await api.handle(
        plainRequest({ basePath: '/__control', method: 'PUT', path: '/snapshot', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(text) }),
      )
      expect({ status: response.status, body: JSON.parse(response.body ?? '') as unknown }, text).toEqual({
        status: 400,
        body: { code: 'invalid_body', message: 'The snapshot is not valid: record 1 (index 0): not valid JSON (it does not end).', status: 400 },
      })
    }
    expect(fake.snapshot()).toEqual(pets)
  })
})

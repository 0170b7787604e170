import { existsSync, readFileSync } from 'node:fs'
import { expect, expectTypeOf, it } from 'vitest'
import type { ListPetsQuery } from '../../src/client/client.js'
import { DEPRECATED_GET_PET, ERROR_FIELDS, type ErrorBody, INTERFACE, type Int64, isPetStatus, type NewPet, type Pet, type PetStatus, LIMIT, operationOf, OPERATIONS, PET_STATUSES, REMOVAL_DAY_IN_WORDS, REMOVAL_HTTP_DATE } from '../../src/spec/animals-service.js'
import { SPEC } from '../../src/spec/citations.js'

// The spec as the team received it, kept beside the contract so any clone can check against it.
const SPEC_TEXT = readFileSync(new URL('../../contracts/spec/animals-service.txt', import.meta.url), 'utf8')
// Where the team's shared copy sits beside the repository (not in every clone): the kept copy must be it.
const SHARED_SPEC = new URL('../../../shared/spec/000_3a140a255a969e5b.txt', import.meta.url)

/** The spec's text with each table row as its cells joined by " | ". */
const ROWS = SPEC_TEXT.split('\n').map((line) => (line.trim().startsWith('|') ? line.trim().slice(1, -1).split('|').map((cell) => cell.trim()).join(' | ') : line))

/** The text of one section, from its heading to the next of the same level. */
function section(heading: string): string {
  const start = ROWS.findIndex((line) => line.startsWith(heading))
  if (start === -1) throw new Error(`the spec has no section "${heading}"`)
  const level = /^#+/.exec(heading)?.[0] ?? '#'
  const end = ROWS.findIndex((line, index) => index > start && new RegExp(`^#{1,${level.length}} `).test(line))
  return ROWS.slice(start, end === -1 ? undefined : end).join('\n')
}

/** The cells of the rows of `text` whose first cell is `first`. */
function cells(text: string, first: string): string[][] {
  return text.split('\n').filter((line) => line.startsWith(`${first} | `)).map((line) => line.split(' | '))
}

it.skipIf(!existsSync(SHARED_SPEC))('keeps contracts/spec/animals-service.txt identical to the shared spec', () => {
  expect(SPEC_TEXT).toBe(readFileSync(SHARED_SPEC, 'utf8'))
})

it('quotes every sentence it cites word for word from the spec (a table row as its cells joined by " | ")', () => {
  const text = ROWS.join('\n')
  for (const [name, { section: number, quote }] of Object.entries(SPEC)) {
    expect(text, name).toContain(quote)
    expect(SPEC_TEXT, name).toMatch(new RegExp(`^## ${number.split('.')[0]}\\. `, 'm'))
  }
})

it('states the interface\'s version and path prefix as section 9 does', () => {
  expect(section('## 9.')).toContain(`The interface is version ${INTERFACE.version} and its paths carry the prefix \`${INTERFACE.basePath}\``)
})

it('states PetStatus\'s values as section 2 does, in its order', () => {
  const allowed = /^Allowed values: (.*)\.$/m.exec(section('### PetStatus'))?.[1] ?? ''
  expect(PET_STATUSES).toEqual([...allowed.matchAll(/`([^`]+)`/g)].map((match) => match[1]))
  expect(PET_STATUSES.filter(isPetStatus)).toEqual(PET_STATUSES)
  expect(['Available', 'unknown', '', undefined, 1].filter(isPetStatus)).toEqual([])
})

it('states the limit\'s bounds and default as sections 4.1 and 8 do', () => {
  const [row] = cells(section('### 4.1'), 'limit')
  expect(row?.[3]).toBe(`minimum ${LIMIT.min}, maximum ${LIMIT.max}, default ${LIMIT.default}`)
  const limits = section('## 8.')
  expect(cells(limits, 'limit default')[0]?.[2]).toBe(String(LIMIT.default))
  expect(cells(limits, 'limit minimum')[0]?.[2]).toBe(String(LIMIT.min))
  expect(cells(limits, 'limit maximum')[0]?.[2]).toBe(String(LIMIT.max))
})

it('states each operation\'s method, path, success and errors as section 4 does', () => {
  const found = ['### 4.1', '### 4.2', '### 4.3'].map((heading) => {
    const text = section(heading)
    const name = cells(text, 'Operation name')[0]?.[1] ?? ''
    const [method, path] = (cells(text, 'Method and path')[0]?.[1] ?? '').split(' ')
    const statuses = text.split('\n').filter((line) => /^[0-9]{3} \| /.test(line)).map((line) => Number(line.slice(0, 3)))
    return [name, { method, path, success: statuses.find((status) => status < 300), errors: statuses.filter((status) => status >= 400) }]
  })
  expect(Object.fromEntries(found)).toEqual(OPERATIONS)
})

it('states getPet\'s deprecation, its removal date and its successor, as sections 4.3 and 9 do', () => {
  const row = cells(section('### 4.3'), 'Deprecated')[0]?.[1] ?? ''
  expect(row).toBe(`yes; removal is announced for 5 December 2030; the replacement is GET /pets with the \`status\` filter`)
  expect(row).toContain(`removal is announced for ${REMOVAL_DAY_IN_WORDS};`)
  expect(REMOVAL_HTTP_DATE).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  const { method, path, filter } = DEPRECATED_GET_PET.successor
  expect(row).toContain(`the replacement is ${method} ${path} with the \`${filter}\` filter`)
  expect(section('## 9.')).toContain(`GET /pets/{petId} is deprecated with an announced removal date of ${REMOVAL_DAY_IN_WORDS}`)
  expect(OPERATIONS[DEPRECATED_GET_PET.operation].path).toBe('/pets/{petId}')
})

it('states the Error body\'s fields as section 2 does, in its order', () => {
  const error = section('### Error')
  expect(error.split('\n').filter((line) => / \| (string|integer) \| yes \| /.test(line)).map((line) => line.split(' | ')[0])).toEqual([...ERROR_FIELDS])
})

it('names the operation of a method and a path below the base, HEAD as GET, and none for the rest', () => {
  const pairs = [['GET', '/pets'], ['HEAD', '/pets'], ['POST', '/pets'], ['GET', '/pets/1'], ['HEAD', '/pets/x'], ['PUT', '/pets/1'], ['GET', '/pets/'], ['GET', '/pets/1/2'], ['GET', '/animals'], ['PUT', '/pets'], ['DELETE', '/pets'], ['POST', '/pets/1']]
  expect(pairs.map(([method = '', path = '']) => operationOf(method, path))).toEqual([
    'listPets', 'listPets', 'createPet', 'getPet', 'getPet', undefined, undefined, undefined, undefined, undefined, undefined, undefined,
  ])
})

it('takes Pet, NewPet, the Error body, PetStatus and the list query from the contract\'s generated types', () => {
  // Checked by the type check (npm test runs it): the shapes come from src/spec/openapi.generated.ts,
  // which test:consumers regenerates from contracts/openapi.yaml; int64 fields widen to Int64.
  expectTypeOf<PetStatus>().toEqualTypeOf<(typeof PET_STATUSES)[number]>()
  expectTypeOf<NewPet>().toEqualTypeOf<{ readonly name: string; readonly categoryId: Int64; readonly status?: PetStatus }>()
  expectTypeOf<Pet>().toEqualTypeOf<{ readonly name: string; readonly categoryId: Int64; readonly status?: PetStatus; readonly id: Int64 }>()
  expectTypeOf<ErrorBody>().toEqualTypeOf<{ readonly code: string; readonly message: string; readonly status: number }>()
  expectTypeOf<ListPetsQuery>().toEqualTypeOf<{ limit?: number; status?: PetStatus }>()
  expect(readFileSync(new URL('../../src/spec/openapi.generated.ts', import.meta.url), 'utf8')).toMatch(/^ \* This file was auto-generated by openapi-typescript\./m)
})

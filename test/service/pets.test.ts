import { expect, it } from 'vitest'
import { MAX_NAME_LENGTH, parseListQuery, parseNewPet, parsePet, parsePetId, toPetJson } from '../../src/service/pets.js'

it('reads limit and status with the spec default and bounds', () => {
  expect(parseListQuery(new URLSearchParams(''))).toEqual({ ok: true, value: { limit: 20 } })
  expect(parseListQuery(new URLSearchParams('limit=100&status=sold'))).toEqual({
    ok: true,
    value: { limit: 100, status: 'sold' },
  })
  expect(parseListQuery(new URLSearchParams('limit=0007'))).toEqual({ ok: true, value: { limit: 7 } })
  for (const query of ['limit=0', 'limit=101', 'limit=9999999', 'limit=%E2%80%8B5', 'status=Sold']) {
    expect(parseListQuery(new URLSearchParams(query)).ok, query).toBe(false)
  }
})

it('reads petId as an exact int64', () => {
  expect(parsePetId('9007199254740993')).toEqual({ ok: true, value: 9007199254740993n })
  expect(parsePetId('abc').ok).toBe(false)
})

it('accepts a NewPet with a bigint categoryId and keeps it exact in JSON', () => {
  const parsed = parseNewPet({ name: 'Big', categoryId: 9007199254740993n })
  expect(parsed).toEqual({ ok: true, value: { name: 'Big', categoryId: 9007199254740993n } })
  expect(toPetJson({ id: 1, name: 'Big', categoryId: 9007199254740993n })).toBe(
    '{"id":1,"name":"Big","categoryId":9007199254740993}',
  )
})

it('refuses a categoryId outside int64 and keys from the prototype chain', () => {
  expect(parseNewPet({ name: 'x', categoryId: 2n ** 63n }).ok).toBe(false)
  const inherited = Object.create({ name: 'Proto', categoryId: 1 }) as object
  const result = parseNewPet(inherited)
  expect(result.ok).toBe(false)
  if (!result.ok) expect(result.error.message).toBe("Field 'name' is required; field 'categoryId' is required.")
})

it('escapes names in JSON, unicode and quotes included', () => {
  const json = toPetJson({ id: 1, name: 'Zoë "the" \u2028 🐈 \ud800', categoryId: 2, status: 'sold' })
  expect(JSON.parse(json)).toEqual({ id: 1, name: 'Zoë "the" \u2028 🐈 \ud800', categoryId: 2, status: 'sold' })
})

it('requires an int64 id in a stored record', () => {
  expect(parsePet({ id: 3, name: 'Rex', categoryId: 1 })).toEqual({ ok: true, value: { id: 3, name: 'Rex', categoryId: 1 } })
  const missing = parsePet({ name: 'Rex', categoryId: 1 })
  expect(!missing.ok && missing.error.message).toContain("'id' is required")
  const bad = parsePet({ id: 1.5, name: 'Rex', categoryId: 1 })
  expect(!bad.ok && bad.error.message).toContain("'id' must be a 64-bit integer")
})

it('takes a name of exactly the maximum length, and refuses one character more', () => {
  expect(parseNewPet({ name: 'n'.repeat(MAX_NAME_LENGTH), categoryId: 1 }).ok).toBe(true)
  const longer = parseNewPet({ name: 'n'.repeat(MAX_NAME_LENGTH + 1), categoryId: 1 })
  expect(longer.ok || longer.error.message).toBe(`Field 'name' must be at most ${MAX_NAME_LENGTH} characters.`)
})

it('takes a categoryId only as a whole number a double holds exactly, or a bigint', () => {
  for (const categoryId of [1.5, '5', 2 ** 53, Number.NaN, true]) {
    const parsed = parseNewPet({ name: 'a', categoryId })
    expect(parsed.ok || parsed.error.message, String(categoryId)).toBe("Field 'categoryId' must be a 64-bit integer.")
  }
})

it('says a request body that is not an object must be one', () => {
  for (const body of [[], null, 'Rex']) {
    const parsed = parseNewPet(body)
    expect(parsed.ok || parsed.error).toEqual({ code: 'invalid_body', message: 'The request body must be a JSON object with name and categoryId.' })
  }
})

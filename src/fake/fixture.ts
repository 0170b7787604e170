import { parse } from 'lossless-json'
import { apiError, FakeInputError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { parseJsonNumber } from '../service/json-body.js'
import { parsePet, toPetJson } from '../service/pets.js'
import type { Pet } from '../spec/animals-service.js'

/**
 * Reads a fixture: a JSON array of Pet records, the same shape `GET /pets` answers. Every record is
 * checked before any is used, so a bad fixture loads nothing; the message names the record and field.
 * @example parseFixture('[{"id":1,"name":"Rex","categoryId":2}]') // { ok: true, value: [...] }
 */
export function parseFixture(text: string): Result<Pet[], string> {
  let records: unknown
  try {
    records = parse(text, null, parseJsonNumber)
  } catch (error) {
    return fail(`not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  return parseFixtureRecords(records)
}

/**
 * Checks fixture records that are already parsed (a JSON import, a snapshot sent in code). Integers
 * past 2^53 must arrive as `bigint`; `parseFixture` reads text that way.
 */
export function parseFixtureRecords(records: unknown): Result<Pet[], string> {
  if (!Array.isArray(records)) return fail('a fixture must be a JSON array of animals')
  const pets: Pet[] = []
  const seen = new Set<Pet['id']>()
  for (const [index, record] of records.entries()) {
    const pet = parsePet(record)
    const where = `record ${index + 1} (index ${index})`
    if (!pet.ok) return fail(`${where}: ${pet.error.message}`)
    if (seen.has(pet.value.id)) return fail(`${where}: field 'id' repeats id ${pet.value.id}`)
    seen.add(pet.value.id)
    pets.push(pet.value)
  }
  return ok(pets)
}

/** Writes animals as a fixture: one animal per line, so diffs of fixtures stay readable. */
export function toFixtureText(pets: readonly Pet[]): string {
  return joinFixture(pets.map(toPetJson))
}

/** A fixture from animals' JSON texts, as a store keeps them. */
export function joinFixture(texts: readonly string[]): string {
  return texts.length === 0 ? '[]\n' : `[\n${texts.join(',\n')}\n]\n`
}

/** Fixture records checked, or a `FakeInputError` (400) naming the first bad one: what a control given animals in code or a body answers. */
export function checkedPets(records: unknown): Pet[] {
  const checked = parseFixtureRecords(records)
  if (!checked.ok) throw new FakeInputError(apiError('invalid_body', checked.error))
  return checked.value
}

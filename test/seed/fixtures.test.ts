import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { parseFixture, toFixtureText } from '../../src/fake/fixture.js'
import { resolveFixture } from '../../src/files/fixtures.js'
import { generatePets } from '../../src/seed/generate-pets.js'
import { SHIPPED_FIXTURES } from '../../src/seed/shipped-fixtures.js'

it.each(SHIPPED_FIXTURES.map((fixture) => [fixture.name, fixture] as const))(
  'fixtures/%s.json is exactly what the generator writes (run `npm run fixtures` after changing it)',
  (_name, { name, ...options }) => {
    expect(readFileSync(resolveFixture(name), 'utf8')).toBe(toFixtureText(generatePets(options)))
  },
)

it('reproduces the same animals for the same seed, and others for another seed', () => {
  const first = toFixtureText(generatePets({ seed: 7, count: 500 }))
  expect(toFixtureText(generatePets({ seed: 7, count: 500 }))).toBe(first)
  expect(toFixtureText(generatePets({ seed: 8, count: 500 }))).not.toBe(first)
})

it('writes fixtures that load back as the same animals', () => {
  const pets = generatePets({ seed: 3, count: 200, firstId: 9007199254740990 })
  expect(parseFixture(toFixtureText(pets))).toEqual({ ok: true, value: pets })
})

it('follows the status mix, "none" leaving the status out', () => {
  const pets = generatePets({ seed: 1, count: 300, statusMix: { available: 0, pending: 0, sold: 1, none: 1 } })
  const statuses = new Set(pets.map((pet) => pet.status ?? 'none'))
  expect(statuses).toEqual(new Set(['sold', 'none']))
})

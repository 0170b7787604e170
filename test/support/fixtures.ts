import { readFileSync } from 'node:fs'
import { parseFixture } from '../../src/fake/fixture.js'
import { resolveFixture } from '../../src/disk/fixtures.js'
import type { Pet } from '../../src/spec/animals-service.js'

/** The animals of a shipped fixture, read the way `serve --fixture` reads them. */
export function shippedPets(name: string): readonly Pet[] {
  const pets = parseFixture(readFileSync(resolveFixture(name), 'utf8'))
  if (!pets.ok) throw new Error(pets.error)
  return pets.value
}

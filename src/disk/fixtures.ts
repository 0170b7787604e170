import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { PACKAGE_ROOT } from '#package-root'
import { parseFixture } from '../fake/fixture.js'
import { SHIPPED_FIXTURES } from '../seed/shipped-fixtures.js'
import type { Pet } from '../spec/animals-service.js'

/** The folder of the fixtures shipped with the package. */
export const FIXTURES_DIR = join(PACKAGE_ROOT, 'fixtures/')

/** The fixture `serve` loads when none is named. */
export const DEFAULT_FIXTURE = 'default'

/** Thrown when a fixture cannot be read or is not valid; the message names file, record and field. */
export class FixtureError extends Error {
  override readonly name = 'FixtureError'
}

/**
 * Where a fixture is: a bare name like `large` is a shipped fixture, anything else a file path.
 * @example resolveFixture('empty') // '<package>/fixtures/empty.json'
 */
export function resolveFixture(nameOrPath: string): string {
  return isShippedName(nameOrPath) ? resolve(FIXTURES_DIR, `${nameOrPath}.json`) : resolve(nameOrPath)
}

function isShippedName(nameOrPath: string): boolean {
  return /^[a-z0-9-]+$/i.test(nameOrPath)
}

/** Reads and checks a fixture whole; nothing of a bad one is returned. */
export async function loadFixture(nameOrPath: string): Promise<Pet[]> {
  const file = resolveFixture(nameOrPath)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A name is read from the package's own fixtures folder, where a read fails only for a name
    // that is not there.
    if (isShippedName(nameOrPath)) {
      const names = SHIPPED_FIXTURES.map((fixture) => fixture.name).join(', ')
      throw new FixtureError(`no shipped fixture is named "${nameOrPath}": the shipped ones are ${names}; a file needs a path, e.g. ./${nameOrPath}.json`)
    }
    throw new FixtureError(`fixture ${file}: ${code === 'ENOENT' ? 'no such file' : String(error)}`)
  }
  const pets = parseFixture(text)
  if (!pets.ok) throw new FixtureError(`fixture ${file}: ${pets.error}`)
  return pets.value
}

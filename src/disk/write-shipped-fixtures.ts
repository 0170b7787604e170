import { writeFile } from 'node:fs/promises'
import { toFixtureText } from '../fake/fixture.js'
import { resolveFixture } from './fixtures.js'
import { generatePets } from '../seed/generate-pets.js'
import { SHIPPED_FIXTURES } from '../seed/shipped-fixtures.js'

/** Rewrites every shipped fixture from its generator options: `npm run fixtures`. */
for (const { name, ...options } of SHIPPED_FIXTURES) {
  const file = resolveFixture(name)
  await writeFile(file, toFixtureText(generatePets(options)))
  process.stdout.write(`wrote ${options.count} animals to ${file}\n`)
}

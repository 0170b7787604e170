import { readFileSync } from 'node:fs'
import { afterEach, expect, it } from 'vitest'
import { pactFilePath } from '../../src/contracts/pact-files.js'
import { BROKEN_FAKES } from '../support/broken-fakes.js'
import { plain, startVerifiableFake, type VerifiableFake, verifyAgainst } from '../support/pact-verification.js'

const committed = JSON.parse(readFileSync(pactFilePath(), 'utf8')) as { interactions: { description: string }[] }
const descriptions = committed.interactions.map((each) => each.description)

let provider: VerifiableFake | undefined
afterEach(async () => {
  await provider?.close()
  provider = undefined
})

it('breaks every interaction of the committed pact with at least one broken fake', () => {
  const broken = new Set(BROKEN_FAKES.flatMap((fake) => fake.breaks))
  expect(descriptions.filter((description) => !broken.has(description))).toEqual([])
  expect([...broken].filter((description) => !descriptions.includes(description))).toEqual([])
})

for (const brokenFake of BROKEN_FAKES) {
  it(`fails verification of exactly the interactions that rely on it when ${brokenFake.rule}`, async () => {
    provider = await startVerifiableFake({ wrap: brokenFake.wrap })
    const outcome = await verifyAgainst(provider.baseUrl)
    expect(outcome.passed).toBe(false)
    expect([...outcome.failed].sort(), plain(outcome.output)).toEqual([...brokenFake.breaks].sort())
  })
}

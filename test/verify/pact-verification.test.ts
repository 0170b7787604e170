import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { pactFilePath } from '../../src/contracts/pact-files.js'
import { UNKNOWN_PET_ID } from '../../src/deployment/provider-states.js'
import { plain, RUN_MARKER, startVerifiableFake, verifyAgainst } from '../support/pact-verification.js'

const committed = JSON.parse(readFileSync(pactFilePath(), 'utf8')) as { interactions: { description: string }[] }

it('the standalone fake honours every interaction of the committed pact', async () => {
  const provider = await startVerifiableFake()
  try {
    const outcome = await verifyAgainst(provider.baseUrl)
    expect(outcome.failed, plain(outcome.output)).toEqual([])
    expect(outcome.passed).toBe(true)
    expect([...outcome.checked].sort()).toEqual(committed.interactions.map((each) => each.description).sort())

    // The ids the provider states got from the fake, not the consumer's examples, reached the requests.
    const marked = provider.fake.store.all().filter((pet) => pet.name.endsWith(RUN_MARKER))
    const gets = provider.requests.filter((request) => /^GET \/v1\/pets\/[^/?]+$/.test(request))
    expect(gets.length).toBeGreaterThan(0)
    for (const request of gets) {
      const id = request.slice('GET /v1/pets/'.length)
      expect([UNKNOWN_PET_ID, ...marked.map((pet) => String(pet.id))]).toContain(id)
    }
    expect(gets).toContain(`GET /v1/pets/${UNKNOWN_PET_ID}`)
  } finally {
    await provider.close()
  }
})

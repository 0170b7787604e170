import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SwaggerMockValidatorFactory, type ValidationOutcome } from '@pactflow/swagger-mock-validator'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { OPENAPI_FILE } from '../../src/contracts/openapi.js'
import { pactFilePath } from '../../src/contracts/pact-files.js'

type PactMessage = { headers?: Record<string, string[]>; body?: { content?: unknown }; status?: number; query?: unknown; path?: string }
type PactInteraction = { description: string; request: PactMessage; response: PactMessage }
type PactFile = { interactions: PactInteraction[] }

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'animals-pact-openapi-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// Strict on both sides: a response body may not carry a field the document does not define, and
// must carry every field it requires (the validator's default lets a pact leave those out).
const validate = (mockPathOrUrl: string): Promise<ValidationOutcome> =>
  SwaggerMockValidatorFactory.create().validate({
    specPathOrUrl: OPENAPI_FILE,
    mockPathOrUrl,
    additionalPropertiesInResponse: 'false',
    requiredPropertiesInResponse: 'true',
  })

const summary = (outcome: ValidationOutcome): string[] =>
  [...outcome.errors, ...outcome.warnings].map((each) => `${each.mockDetails.interactionDescription}: ${each.code}: ${each.message}`)

const readCommitted = (): PactFile => JSON.parse(readFileSync(pactFilePath(), 'utf8')) as PactFile

it('every interaction of the committed pact agrees with contracts/openapi.yaml, without a warning', async () => {
  const outcome = await validate(pactFilePath())
  expect(summary(outcome)).toEqual([])
  expect(outcome.success).toBe(true)
  expect(readCommitted().interactions.length).toBeGreaterThan(0)
})

const contentOf = (message: PactMessage): Record<string, unknown> => message.body?.content as Record<string, unknown>

// Each copy of the pact gets one interaction wrong in a way the document rules out.
const WRONG: readonly { what: string; description: string; code: string; spoil(interaction: PactInteraction): void }[] = [
  {
    what: 'an Error status given as a string',
    description: 'a request to get an animal that does not exist',
    code: 'response.body.incompatible',
    spoil: (interaction) => {
      contentOf(interaction.response).status = '404'
    },
  },
  {
    what: 'an Error body without its code',
    description: 'a request to list animals without a key',
    code: 'response.body.incompatible',
    spoil: (interaction) => {
      delete contentOf(interaction.response).code
    },
  },
  {
    what: 'a Pet id given as a string',
    description: 'a request to get an animal',
    code: 'response.body.incompatible',
    spoil: (interaction) => {
      contentOf(interaction.response).id = '31'
    },
  },
  {
    what: 'a Pet with a field the document does not define',
    description: 'a request to add an animal with a status',
    code: 'response.body.incompatible',
    spoil: (interaction) => {
      contentOf(interaction.response).colour = 'brown'
    },
  },
  {
    what: 'a status outside PetStatus',
    description: 'a request to list sold animals',
    code: 'response.body.incompatible',
    spoil: (interaction) => {
      interaction.response.body = { content: [{ id: 1, name: 'Luna', categoryId: 2, status: 'gone' }] }
    },
  },
  {
    what: 'a limit above the maximum',
    description: 'a request to list at most 3 animals',
    code: 'request.query.incompatible',
    spoil: (interaction) => {
      interaction.request.query = { limit: ['500'] }
    },
  },
  {
    what: 'a new animal without a name answered 201',
    description: 'a request to add an animal with a status',
    code: 'request.body.incompatible',
    spoil: (interaction) => {
      delete contentOf(interaction.request).name
    },
  },
  {
    what: 'a successful request without a key',
    description: 'a request to get an animal',
    code: 'request.authorization.missing',
    spoil: (interaction) => {
      delete interaction.request.headers?.Authorization
    },
  },
  {
    what: 'a path with the /v1 prefix, which belongs to the server address',
    description: 'a request to list sold animals',
    code: 'request.path-or-method.unknown',
    spoil: (interaction) => {
      interaction.request.path = '/v1/pets'
    },
  },
  {
    what: 'a header the document does not define for that answer',
    description: 'a request to get an animal that does not exist',
    code: 'response.header.unknown',
    spoil: (interaction) => {
      interaction.response.headers = { ...interaction.response.headers, Sunset: ['Thu, 05 Dec 2030 00:00:00 GMT'] }
    },
  },
  {
    what: 'a body that is not JSON',
    description: 'a request to get an animal',
    code: 'response.content-type.incompatible',
    spoil: (interaction) => {
      interaction.response.headers = { ...interaction.response.headers, 'Content-Type': ['application/xml'] }
    },
  },
]

for (const wrong of WRONG) {
  it(`fails a pact with ${wrong.what}`, async () => {
    const pact = readCommitted()
    const interaction = pact.interactions.find((each) => each.description === wrong.description)
    if (interaction === undefined) throw new Error(`the committed pact has no "${wrong.description}"`)
    wrong.spoil(interaction)
    const file = join(dir, `${wrong.what.replace(/\W+/g, '-')}.json`)
    writeFileSync(file, JSON.stringify(pact))
    const outcome = await validate(file)
    expect(outcome.success).toBe(false)
    expect(outcome.errors.map((each) => [each.mockDetails.interactionDescription, each.code])).toContainEqual([wrong.description, wrong.code])
  })
}

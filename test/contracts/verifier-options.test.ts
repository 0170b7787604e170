import { expect, it } from 'vitest'
import { PACT_PARTIES, pactFilePath } from '../../src/contracts/pact-files.js'
import {
  API_KEY_PLACEHOLDER,
  createApiKeyFilter,
  createVerifierOptions,
  type FilterableRequest,
  withApiKey,
} from '../../src/contracts/verifier-options.js'

const KEY = 'real-key-9d8e7f'

it('puts the key where the pact has the placeholder', () => {
  expect(withApiKey(`Bearer ${API_KEY_PLACEHOLDER}`, KEY)).toBe(`Bearer ${KEY}`)
  expect(withApiKey(`bearer ${API_KEY_PLACEHOLDER}`, KEY)).toBe(`bearer ${KEY}`)
})

it('leaves every other Authorization as the pact has it: invalid keys, other schemes, near misses, none', () => {
  for (const authorization of [
    'Bearer not-a-valid-key',
    `Basic ${API_KEY_PLACEHOLDER}`,
    `Bearer ${API_KEY_PLACEHOLDER}x`,
    `Bearer x${API_KEY_PLACEHOLDER}`,
    'Bearer',
  ]) {
    expect(withApiKey(authorization, KEY)).toBe(authorization)
  }
  expect(withApiKey(undefined, KEY)).toBeUndefined()
})

it('filters the verifier proxy\'s requests in place and always passes them on', () => {
  const filter = createApiKeyFilter(KEY)
  const run = (headers: FilterableRequest['headers']): { headers: FilterableRequest['headers']; passed: boolean } => {
    const request = { headers: { ...headers } }
    let passed = false
    filter(request, {}, () => {
      passed = true
    })
    return { headers: request.headers, passed }
  }
  expect(run({ authorization: `Bearer ${API_KEY_PLACEHOLDER}` })).toEqual({ headers: { authorization: `Bearer ${KEY}` }, passed: true })
  expect(run({ authorization: 'Bearer not-a-valid-key' })).toEqual({ headers: { authorization: 'Bearer not-a-valid-key' }, passed: true })
  expect(run({ accept: 'application/json' })).toEqual({ headers: { accept: 'application/json' }, passed: true })
})

it('verifies the committed pact of the animals service, failing when there is none', () => {
  const stateHandlers = { 'a state': async () => undefined }
  const options = createVerifierOptions({ providerBaseUrl: 'http://127.0.0.1:4010/v1', apiKey: KEY, stateHandlers })
  expect(options).toMatchObject({
    provider: PACT_PARTIES.provider,
    providerBaseUrl: 'http://127.0.0.1:4010/v1',
    pactUrls: [pactFilePath()],
    stateHandlers,
    logLevel: 'warn',
    failIfNoPactsFound: true,
  })
  expect(typeof options.requestFilter).toBe('function')
  const other = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers, pactUrls: ['/a.json'], logLevel: 'error' })
  expect(other).toMatchObject({ pactUrls: ['/a.json'], logLevel: 'error' })
})

it('keeps the key out of everything Pact may log: it lives only inside the filter', () => {
  const options = createVerifierOptions({ providerBaseUrl: 'http://127.0.0.1:4010/v1', apiKey: KEY, stateHandlers: {} })
  // pact-js logs its options as JSON at trace level.
  expect(JSON.stringify(options)).not.toContain(KEY)
})

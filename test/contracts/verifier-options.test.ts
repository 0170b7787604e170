import { expect, it } from 'vitest'
import { PACT_PARTIES, pactFilePath } from '../../src/contracts/pact-files.js'
import {
  API_KEY_PLACEHOLDER,
  createApiKeyFilter,
  createRequestFilter,
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

it('marks the name of every animal a POST creates, keeping Content-Length true to the body Pact sends', () => {
  const filter = createRequestFilter({ apiKey: KEY, marker: '[animals-mock verify 7]' })
  const request: FilterableRequest = {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY_PLACEHOLDER}`, 'content-length': '41' },
    body: { name: 'Biscuit', categoryId: 3 },
  }
  filter(request, {}, () => undefined)
  expect(request.body).toEqual({ name: 'Biscuit [animals-mock verify 7]', categoryId: 3 })
  expect(request.headers).toEqual({ authorization: `Bearer ${KEY}`, 'content-length': String(Buffer.byteLength(JSON.stringify(request.body))) })
  for (const untouched of [
    { method: 'GET', headers: {}, body: { name: 'Biscuit' } },
    { method: 'POST', headers: {}, body: { categoryId: 3 } },
    { method: 'POST', headers: {}, body: [{ name: 'Biscuit' }] },
  ]) {
    const copy = structuredClone(untouched)
    filter(copy, {}, () => undefined)
    expect(copy).toEqual(untouched)
  }
})

it('takes the pacts from a broker with selectors, and publishes only when asked, the token never among the options', () => {
  const stateHandlers = {}
  const broker = { url: 'https://broker.example', consumerVersionSelectors: [{ branch: 'main' }], providerVersion: '1.2.3', branch: 'main', publish: true }
  const options = createVerifierOptions({ providerBaseUrl: 'http://127.0.0.1:4010/v1', apiKey: KEY, stateHandlers, broker, timeoutMs: 2500 })
  expect(options).toMatchObject({
    pactBrokerUrl: 'https://broker.example',
    consumerVersionSelectors: [{ branch: 'main' }],
    providerVersion: '1.2.3',
    providerVersionBranch: 'main',
    publishVerificationResult: true,
    timeout: 2500,
  })
  expect(options.pactUrls).toBeUndefined()
  expect(options.pactBrokerToken).toBeUndefined()
  const unpublished = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers, broker: { url: 'https://b', consumerVersionSelectors: [{ mainBranch: true }] } })
  expect(unpublished.publishVerificationResult).toBeUndefined()
  expect(JSON.stringify(unpublished)).not.toContain(KEY)
})

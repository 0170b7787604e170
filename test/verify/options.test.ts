import { expect, it } from 'vitest'
import { PACT_PARTIES, pactFilePath } from '../../src/contracts/pact-files.js'
import {
  API_KEY_PLACEHOLDER,
  createApiKeyFilter,
  createRequestFilter,
  createVerifierOptions,
  type FilterableRequest,
  withApiKey,
} from '../../src/verify/options.js'

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

it('finds the placeholder however the bearer scheme is spaced or cased, and keeps the scheme as sent', () => {
  expect(withApiKey(`  BEARER   ${API_KEY_PLACEHOLDER}  `, KEY)).toBe(`BEARER ${KEY}`)
  expect(withApiKey(`Bearer\t${API_KEY_PLACEHOLDER}`, KEY)).toBe(`Bearer\t${API_KEY_PLACEHOLDER}`)
  expect(withApiKey(`Bearer ${API_KEY_PLACEHOLDER} extra`, KEY)).toBe(`Bearer ${API_KEY_PLACEHOLDER} extra`)
  expect(withApiKey(`XBearer ${API_KEY_PLACEHOLDER}`, KEY)).toBe(`XBearer ${API_KEY_PLACEHOLDER}`)
  expect(withApiKey('', KEY)).toBe('')
})

it('leaves an Authorization sent more than once as it is', () => {
  const request: FilterableRequest = { headers: { authorization: [`Bearer ${API_KEY_PLACEHOLDER}`, 'Bearer x'] } }
  createApiKeyFilter(KEY)(request, {}, () => undefined)
  expect(request.headers.authorization).toEqual([`Bearer ${API_KEY_PLACEHOLDER}`, 'Bearer x'])
})

it('marks names with the run\'s marker given to the verifier options, counting Content-Length in bytes', () => {
  const options = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers: {}, marker: '[run ✓]' })
  const request: FilterableRequest = { method: 'POST', headers: {}, body: { name: 'Bíscuit', categoryId: 3 } }
  ;(options.requestFilter as (request: FilterableRequest, response: unknown, next: () => void) => void)(request, {}, () => undefined)
  expect(request.body).toEqual({ name: 'Bíscuit [run ✓]', categoryId: 3 })
  expect(request.headers['content-length']).toBe(String(Buffer.byteLength('{"name":"Bíscuit [run ✓]","categoryId":3}')))
  const unmarked = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers: {} })
  const plain: FilterableRequest = { method: 'POST', headers: { authorization: `Bearer ${API_KEY_PLACEHOLDER}` }, body: { name: 'Biscuit' } }
  ;(unmarked.requestFilter as (request: FilterableRequest, response: unknown, next: () => void) => void)(plain, {}, () => undefined)
  expect(plain).toEqual({ method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: { name: 'Biscuit' } })
})

it('leaves a POST without a JSON object body, or with a name that is not text, unmarked', () => {
  const filter = createRequestFilter({ apiKey: KEY, marker: '[m]' })
  for (const body of [undefined, null, 'name=Biscuit', { name: 7 }]) {
    const request: FilterableRequest = { method: 'POST', headers: { 'content-length': '12' }, body }
    filter(request, {}, () => undefined)
    expect(request, JSON.stringify(body)).toEqual({ method: 'POST', headers: { 'content-length': '12' }, body })
  }
})

it('verifies the local pacts given besides a broker\'s, and nothing local by default when a broker is given', () => {
  const broker = { url: 'https://broker.example', consumerVersionSelectors: [{ mainBranch: true as const }] }
  const both = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers: {}, broker, pactUrls: ['/a.json', '/b.json'] })
  expect(both).toMatchObject({ pactUrls: ['/a.json', '/b.json'], pactBrokerUrl: 'https://broker.example' })
  const none = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers: {}, pactUrls: [] })
  expect('pactUrls' in none).toBe(false)
})

it('asks the broker only for what it was given: no version, branch, publication or timeout unless set', () => {
  const selectors = [{ branch: 'main' }, { deployedOrReleased: true as const }]
  const options = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers: {}, broker: { url: 'https://b', consumerVersionSelectors: selectors, publish: false } })
  expect(options.consumerVersionSelectors).toEqual(selectors)
  for (const absent of ['providerVersion', 'providerVersionBranch', 'publishVerificationResult', 'timeout', 'pactUrls']) expect(absent in options, absent).toBe(false)
  const versioned = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers: {}, broker: { url: 'https://b', consumerVersionSelectors: selectors, providerVersion: 'abc' } })
  expect(versioned).toMatchObject({ providerVersion: 'abc' })
  expect('providerVersionBranch' in versioned).toBe(false)
  const branched = createVerifierOptions({ providerBaseUrl: 'x', apiKey: KEY, stateHandlers: {}, broker: { url: 'https://b', consumerVersionSelectors: selectors, branch: 'dev' } })
  expect(branched).toMatchObject({ providerVersionBranch: 'dev' })
  expect('providerVersion' in branched).toBe(false)
})

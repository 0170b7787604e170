import { afterAll, beforeAll, expect, it } from 'vitest'
import { PARITY_PROBES, type Probe } from '../../src/parity/probes.js'
import { type ParityOptions, ParitySetupError, runParity } from '../../src/parity/run.js'
import { PARITY_SCENARIOS, type Scenario, type ScenarioSide } from '../../src/parity/scenarios.js'
import { closedPort } from '../support/deployments.js'
import { type Drift, startIndependentService } from '../support/independent-service/service.js'
import { PROVIDER_KEY, startVerifiableFake, type VerifiableFake } from '../support/pact-verification.js'

const MARKER = '[animals-mock parity run-1]'
const probes = (...ids: string[]): Probe[] => ids.map((id) => PARITY_PROBES.find((each) => each.id === id) ?? (() => { throw new Error(`no probe ${id}`) })())
const closers: (() => Promise<void>)[] = []
let fake: VerifiableFake
beforeAll(async () => {
  fake = await startVerifiableFake()
  closers.push(() => fake.close())
})
afterAll(() => Promise.all(closers.map((close) => close())))

async function independent(options: Parameters<typeof startIndependentService>[0] = { keys: [PROVIDER_KEY], seeded: 30 }): Promise<string> {
  const service = await startIndependentService(options)
  closers.push(() => service.close())
  return service.baseUrl
}
const optionsFor = (deployment: string, extra: Partial<ParityOptions> = {}): ParityOptions => ({
  fake: { baseUrl: fake.baseUrl, apiKey: PROVIDER_KEY },
  deployment: { baseUrl: deployment, apiKey: PROVIDER_KEY },
  marker: MARKER,
  timeoutMs: 5000,
  ...extra,
})

it('finds only open differences between the fake and an implementation that chooses otherwise', async () => {
  const report = await runParity(optionsFor(await independent()))
  expect(report.outcomes.map((each) => each.probe.id)).toEqual(PARITY_PROBES.map((each) => each.id))
  expect(report.scenarios.map((each) => [each.scenario.id, each.fake.ok, each.deployment.ok])).toEqual([
    ['refused-create-stores-nothing', true, true],
    ['ids-unique-in-parallel', true, true],
    ['survives-large-body', true, true],
    ['ids-unique-after-existing', true, true],
  ])
  expect(report.findings.filter((each) => each.verdict !== 'open')).toEqual([])
  const found = (probe: string, aspect: string) => report.findings.find((each) => each.probe === probe && each.aspect === aspect)
  expect(found('get-id-not-integer', 'status')).toMatchObject({ fake: '400', deployment: '404', reason: 'the spec does not say how a petId that is not an integer is answered' })
  expect(found('create-with-status', 'header Location')).toMatchObject({ fake: 'a path to …/pets/<id>', deployment: 'absent' })
  expect(found('get-existing', 'header Sunset')).toMatchObject({ fake: 'Thu, 05 Dec 2030 00:00:00 GMT', deployment: 'Thu, 05 Dec 2030 23:59:59 GMT' })
  expect(found('list-no-key', 'header WWW-Authenticate')).toMatchObject({ fake: 'present', deployment: 'absent' })
})

it('finds a contradiction of the spec on the side that drifts', async () => {
  const report = await runParity(optionsFor(await independent({ keys: [PROVIDER_KEY], seeded: 30, drift: 'empty token accepted' }), { probes: probes('list-empty-token', 'list-no-key'), scenarios: [] }))
  expect(report.findings).toEqual([
    expect.objectContaining({ probe: 'list-empty-token', verdict: 'contradiction', aspect: 'status', fake: '401', deployment: '200', side: 'deployment' }),
    expect.objectContaining({ probe: 'list-no-key', verdict: 'open', aspect: 'header WWW-Authenticate' }),
  ])
})

it('sets each side up with more animals than the default limit, a sold one and one of its own, all marked', async () => {
  const empty = await startVerifiableFake({ pets: [] })
  closers.push(() => empty.close())
  const report = await runParity({ ...optionsFor(fake.baseUrl), fake: { baseUrl: empty.baseUrl, apiKey: PROVIDER_KEY }, probes: probes('get-existing', 'list-status-sold'), scenarios: [] })
  const animals = empty.fake.store.all()
  expect(animals).toHaveLength(23)
  expect(animals.slice(0, 21).map((pet) => pet.name)).toEqual(Array.from({ length: 21 }, (_, index) => `Pact animal ${index + 1} ${MARKER}`))
  expect(animals.every((pet) => pet.name.endsWith(` ${MARKER}`))).toBe(true)
  expect(animals.filter((pet) => pet.status === 'sold')).toHaveLength(1)
  const own = animals.filter((pet) => pet.name === `Parity probe ${MARKER}`)
  expect(own).toMatchObject([{ categoryId: 1, status: 'available' }])
  const [got] = report.outcomes
  expect(got?.fake.ok === true ? got.fake.sent?.target : undefined).toBe(`/pets/${String(own[0]?.id)}`)
  expect(report.findings).toEqual([])
})

it('sends each probe to both sides in order, after the set-up', async () => {
  const deployment = await startVerifiableFake()
  closers.push(() => deployment.close())
  const before = deployment.requests.length
  await runParity(optionsFor(deployment.baseUrl, { probes: probes('list-limit-3', 'create-without-name', 'unknown-path'), scenarios: [] }))
  expect(deployment.requests.slice(before).slice(-3)).toEqual(['GET /v1/pets?limit=3', 'POST /v1/pets', 'GET /v1/animals'])
})

it('records an answer as given, a redirect not followed, with its headers', async () => {
  const redirecting = await startVerifiableFake({
    wrap: (site) => ({
      handle: (request) => (request.path === '/v1/pets/abc' ? { status: 302, headers: { location: '/v1/pets' }, body: '' } : site.handle(request)),
    }),
  })
  closers.push(() => redirecting.close())
  const report = await runParity(optionsFor(redirecting.baseUrl, { probes: probes('get-id-not-integer'), scenarios: [] }))
  const [outcome] = report.outcomes
  expect(outcome?.deployment).toMatchObject({ ok: true, status: 302, headers: { location: '/v1/pets' }, body: '' })
  expect(report.findings).toEqual([expect.objectContaining({ verdict: 'open', aspect: 'status', fake: '400', deployment: '302' })])
})

/** A `fetch` that never answers `stuck` requests, only gives up when their signal aborts. */
function hanging(stuck: (url: string) => boolean): typeof fetch {
  return (input, init) => {
    if (!stuck(String(input))) return fetch(input, init)
    return new Promise((_, reject) => {
      const signal = init?.signal
      signal?.addEventListener('abort', () => reject(signal.reason as Error))
    })
  }
}

it('gives up on a probe a side does not answer within the timeout', async () => {
  const deployment = await independent()
  const report = await runParity(optionsFor(deployment, { probes: probes('unknown-path'), scenarios: [], fetch: hanging((url) => url === `${deployment}/animals`), timeoutMs: 1500 }))
  expect(report.outcomes[0]?.deployment).toEqual({ ok: false, error: 'no answer within 1500 ms' })
  expect(report.findings).toEqual([
    { probe: 'unknown-path', verdict: 'no-answer', aspect: 'status', fake: '404', deployment: 'no answer: no answer within 1500 ms', reason: 'a side did not answer within the timeout, or the connection failed' },
  ])
})

it('gives up setting a side up that does not answer within the timeout', async () => {
  const deployment = await independent()
  const run = runParity(optionsFor(deployment, { fetch: hanging((url) => url.startsWith(deployment)), timeoutMs: 1500 }))
  await expect(run).rejects.toThrow(`could not set the deployment up (${deployment}): no answer within 1500 ms`)
})

it('sends everything through the fetch it is given: set-up, probes and scenarios', async () => {
  const deployment = await independent()
  const seen: string[] = []
  const routed: typeof fetch = (input, init) => {
    seen.push(String(input))
    return fetch(String(input).replace('http://deployment.test/v1', deployment), init)
  }
  const report = await runParity(optionsFor('http://deployment.test/v1', { probes: probes('list-limit-1'), scenarios: PARITY_SCENARIOS.slice(1, 2), fetch: routed }))
  expect(report.findings).toEqual([])
  expect(seen.filter((url) => url.startsWith('http://deployment.test/v1/pets?limit=1'))).not.toEqual([])
  expect(seen).toContain('http://deployment.test/v1/pets?status=sold&limit=100')
})

it('hands each scenario its side, and reports one that could not finish as without an answer', async () => {
  const deployment = await independent()
  const sides: Omit<ScenarioSide, 'fetch' | 'creations'>[] = []
  const created: (readonly string[])[] = []
  const failing: Scenario = {
    id: 'failing',
    request: 'nothing',
    rule: 'none',
    async run(side) {
      const { fetch: _fetch, creations, ...rest } = side
      sides.push(rest)
      created.push(creations.created)
      if (side.baseUrl === deployment) throw new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) })
      return { summary: 'fine', violations: [] }
    },
  }
  const report = await runParity(optionsFor(deployment, { probes: [], scenarios: [failing], timeoutMs: 4321 }))
  expect(sides).toEqual([
    { baseUrl: fake.baseUrl, apiKey: PROVIDER_KEY, marker: MARKER, timeoutMs: 4321 },
    { baseUrl: deployment, apiKey: PROVIDER_KEY, marker: MARKER, timeoutMs: 4321 },
  ])
  // What each side's set-up created: its own animal for the getPet probes, with an id.
  expect(created.map((ids) => ids.length)).toEqual([1, 1])
  expect(report.scenarios[0]?.deployment).toEqual({ ok: false, error: 'connection reset (ECONNRESET)' })
  expect(report.findings).toEqual([expect.objectContaining({ probe: 'failing', verdict: 'no-answer', fake: 'fine', deployment: 'no answer: connection reset (ECONNRESET)' })])
})

it('stops before any probe when a side cannot be set up, saying which and why', async () => {
  const refusing = await independent({ keys: ['another-key'], seeded: 30 })
  const refused = runParity(optionsFor(refusing, { scenarios: [] }))
  await expect(refused).rejects.toThrow(ParitySetupError)
  await expect(refused).rejects.toThrow(`could not set the deployment up (${refusing}): 401 UNAUTHENTICATED: Sign in with a bearer API key.`)
  const port = await closedPort()
  const down = `http://127.0.0.1:${port}/v1`
  const unreachable = runParity({ ...optionsFor(refusing), fake: { baseUrl: down, apiKey: PROVIDER_KEY } })
  await expect(unreachable).rejects.toMatchObject({ name: 'ParitySetupError', message: expect.stringMatching(new RegExp(`^could not set the fake up \\(${down.replaceAll('.', '\\.')}\\): `)) })
  await expect(unreachable).rejects.toThrow(`could not set the fake up (${down}): connection refused (ECONNREFUSED)`)
})

/** Each drift of the independent implementation, the probe that meets it, and the finding it must give. */
const DRIFTS: readonly { readonly drift: Drift; readonly probe: string; readonly finding: readonly [string, string, string] }[] = [
  { drift: 'body checked before the key', probe: 'create-no-key-bad-body', finding: ['status', '401', '400'] },
  { drift: 'categoryId "5" accepted', probe: 'create-categoryId-numeric-text', finding: ['status', '400', '201'] },
  { drift: 'categoryId null accepted', probe: 'create-categoryId-null', finding: ['status', '400', '201'] },
  { drift: 'categoryId true accepted', probe: 'create-categoryId-true', finding: ['status', '400', '201'] },
  { drift: 'categoryId 1.5 accepted', probe: 'create-categoryId-fraction', finding: ['status', '400', '201'] },
  { drift: 'limit=0 answered with no animals', probe: 'list-limit-0', finding: ['count', 'not a list', '0 animals'] },
  { drift: 'limit=101 answered with 101 animals', probe: 'list-limit-101', finding: ['count', 'not a list', '101 animals'] },
  { drift: 'limit=abc answered with the default', probe: 'list-limit-abc', finding: ['count', 'not a list', '20 animals'] },
  { drift: 'limit=1.5 answered with the default', probe: 'list-limit-1.5', finding: ['count', 'not a list', '20 animals'] },
  { drift: 'status=bogus answered 200', probe: 'list-status-bogus', finding: ['status', '400', '200'] },
  { drift: 'status=toString answered 200', probe: 'list-status-toString', finding: ['status', '400', '200'] },
  { drift: 'the key is not checked', probe: 'get-invalid-key', finding: ['status', '401', '200'] },
  { drift: 'createPet answers 200', probe: 'create-without-status', finding: ['status', '201', '200'] },
  { drift: 'default limit is 10', probe: 'list-default', finding: ['count', '20 animals', '10 animals'] },
  { drift: 'the status filter is ignored', probe: 'list-status-sold', finding: ['body', 'an array of 1', 'an array of 20'] },
  { drift: 'an unknown id is found', probe: 'get-unknown', finding: ['status', '404', '200'] },
  { drift: 'Error status differs from HTTP status', probe: 'create-empty-token', finding: ['body', 'an object with code, message, status', 'an object with code, message, status'] },
  { drift: 'Sunset of 1 December 2030', probe: 'get-existing', finding: ['header Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT', 'Sun, 01 Dec 2030 00:00:00 GMT'] },
  { drift: 'ids are strings', probe: 'list-limit-3', finding: ['body', '$[].id: integer', '$[].id: string'] },
  { drift: 'the created animal loses its status', probe: 'create-with-status', finding: ['body', '$.status: string', '$.status: absent'] },
]

it('calls each drift of the independent implementation a contradiction of the deployment, citing the spec', async () => {
  const sold = await startVerifiableFake({ pets: [] })
  closers.push(() => sold.close())
  for (const { drift, probe, finding } of DRIFTS) {
    const deployment = await independent({ keys: [PROVIDER_KEY], seeded: 120, deprecation: 'true', drift })
    const report = await runParity(optionsFor(deployment, { fake: { baseUrl: sold.baseUrl, apiKey: PROVIDER_KEY }, probes: probes(probe), scenarios: [] }))
    const [aspect, onFake, onDeployment] = finding
    const found = report.findings.filter((each) => each.verdict === 'contradiction')
    expect(found, drift).toContainEqual(expect.objectContaining({ probe, aspect, fake: onFake, deployment: onDeployment, side: 'deployment' }))
    for (const each of found) expect(each, drift).toMatchObject({ side: 'deployment', reason: expect.stringMatching(/spec [0-9.]+: "/) })
  }
})

it('names the animals its probes create after the run\'s own, with the marker', async () => {
  const side = await startVerifiableFake()
  closers.push(() => side.close())
  const before = side.fake.store.all().length
  await runParity(optionsFor(side.baseUrl, { probes: probes('create-without-status', 'create-text-plain'), scenarios: [] }))
  const created = side.fake.store.all().slice(before).map((pet) => pet.name)
  expect(created).toEqual([`Parity probe ${MARKER}`, `Parity probe ${MARKER}`])
})

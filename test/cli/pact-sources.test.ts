import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'
import { CliError } from '../../src/cli/cli-error.js'
import { type PactSourceValues, parsePactSources } from '../../src/cli/pact-sources.js'
import { pactFilePath } from '../../src/contracts/pact-files.js'

const NONE: PactSourceValues = { pact: [], 'consumer-branch': [], 'main-branch': false, 'deployed-or-released': false, publish: false }
const BROKER = 'https://broker.example'
const committed = (JSON.parse(readFileSync(pactFilePath(), 'utf8')) as { interactions: unknown[] }).interactions.length
const committedNear = relative(process.cwd(), pactFilePath())

const dir = mkdtempSync(join(tmpdir(), 'pact-sources-'))
function pactFile(name: string, content: string): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}
const pactOf = (interactions: number): string => JSON.stringify({ interactions: Array.from({ length: interactions }, (_, i) => ({ description: `i${i}` })) })

async function refusalOf(values: Partial<PactSourceValues>): Promise<string> {
  try {
    await parsePactSources({ ...NONE, ...values })
  } catch (error) {
    expect(error).toBeInstanceOf(CliError)
    expect((error as CliError).exitCode).toBe(2)
    return (error as CliError).message
  }
  throw new Error(`accepted ${JSON.stringify(values)}`)
}

it('verifies the committed pact when given neither --pact nor --broker-url, counting its interactions', async () => {
  expect(committedNear).toBe('contracts/pacts/animals-frontend-animals-service.json')
  expect(await parsePactSources(NONE)).toStrictEqual({
    pactUrls: [pactFilePath()],
    description: `${committed} interactions of ${committedNear}`,
  })
})

it('counts the interactions of every pact file given, naming each', async () => {
  const [a, b] = [pactFile('a.json', pactOf(3)), pactFile('b.json', pactOf(2))]
  expect(await parsePactSources({ ...NONE, pact: [a, b] })).toStrictEqual({ pactUrls: [a, b], description: `5 interactions of ${a}, ${b}` })
  expect((await parsePactSources({ ...NONE, pact: [a] })).description).toBe(`3 interactions of ${a}`)
})

it('names the pacts of a directory without counting them, whatever else is given', async () => {
  const folder = join(dir, 'folder')
  mkdirSync(folder, { recursive: true })
  const file = pactFile('one.json', pactOf(4))
  expect((await parsePactSources({ ...NONE, pact: [folder] })).description).toBe(`the pacts in ${folder}`)
  expect((await parsePactSources({ ...NONE, pact: [folder, file] })).description).toBe(`the pacts in ${folder}, ${file}`)
  expect((await parsePactSources({ ...NONE, pact: [file, folder] })).description).toBe(`the pacts in ${file}, ${folder}`)
})

it('names a pact inside the working directory by its relative path, and the working directory itself in full', async () => {
  expect((await parsePactSources({ ...NONE, pact: ['contracts/pacts'] })).description).toBe('the pacts in contracts/pacts')
  expect((await parsePactSources({ ...NONE, pact: [join(process.cwd(), 'contracts')] })).description).toBe('the pacts in contracts')
  expect((await parsePactSources({ ...NONE, pact: [process.cwd()] })).description).toBe(`the pacts in ${process.cwd()}`)
})

it('refuses a pact that is missing, not JSON, not a pact or empty, before anything is sent', async () => {
  const missing = join(dir, 'nowhere.json')
  expect(await refusalOf({ pact: [missing] })).toBe(`no pact at ${missing}`)
  const broken = pactFile('broken.json', '{"interactions":')
  expect(await refusalOf({ pact: [broken] })).toMatch(new RegExp(`^cannot read the pact ${broken}: [^\\n]+$`))
  expect(await refusalOf({ pact: [broken] })).toContain('JSON')
  for (const content of ['{}', 'null', '{"interactions":{}}', '[]', '"text"']) {
    const path = pactFile('not-a-pact.json', content)
    expect(await refusalOf({ pact: [path] }), content).toBe(`${path} is not a pact: it has no "interactions" array`)
  }
  const empty = pactFile('empty.json', '{"interactions":[]}')
  expect(await refusalOf({ pact: [empty] })).toBe(`the pact ${empty} holds no interactions`)
  // The first bad one is named, after a good one.
  expect(await refusalOf({ pact: [pactFile('good.json', pactOf(1)), missing] })).toBe(`no pact at ${missing}`)
})

it('fetches from a broker alone with the default selectors, the committed pact left out', async () => {
  expect(await parsePactSources({ ...NONE, 'broker-url': `${BROKER}/` })).toStrictEqual({
    pactUrls: [],
    broker: { url: BROKER, consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }] },
    description: `the pacts for animals-service from the Pact Broker at ${BROKER} (selectors [{"mainBranch":true},{"deployedOrReleased":true}])`,
  })
})

it('joins local pacts and a broker in one description', async () => {
  const a = pactFile('local.json', pactOf(2))
  const sources = await parsePactSources({ ...NONE, pact: [a], 'broker-url': BROKER, 'consumer-branch': ['main'] })
  expect(sources.pactUrls).toEqual([a])
  expect(sources.description).toBe(`2 interactions of ${a} and the pacts for animals-service from the Pact Broker at ${BROKER} (selectors [{"branch":"main"}])`)
})

it('puts the selectors in order: the JSON ones, each --consumer-branch, --main-branch, --deployed-or-released', async () => {
  const sources = await parsePactSources({
    ...NONE,
    'broker-url': BROKER,
    'consumer-version-selectors': '[{"tag":"prod","latest":true}]',
    'consumer-branch': ['main', 'next'],
    'main-branch': true,
    'deployed-or-released': true,
  })
  expect(sources.broker?.consumerVersionSelectors).toEqual([
    { tag: 'prod', latest: true },
    { branch: 'main' },
    { branch: 'next' },
    { mainBranch: true },
    { deployedOrReleased: true },
  ])
  expect((await parsePactSources({ ...NONE, 'broker-url': BROKER, 'main-branch': true })).broker?.consumerVersionSelectors).toEqual([{ mainBranch: true }])
  expect((await parsePactSources({ ...NONE, 'broker-url': BROKER, 'deployed-or-released': true })).broker?.consumerVersionSelectors).toEqual([
    { deployedOrReleased: true },
  ])
})

it('passes the provider version, the branch and publishing on to the broker only when given', async () => {
  expect((await parsePactSources({ ...NONE, 'broker-url': BROKER, 'provider-version': '1.2.3' })).broker).toStrictEqual({
    url: BROKER,
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
    providerVersion: '1.2.3',
  })
  expect((await parsePactSources({ ...NONE, 'broker-url': BROKER, branch: 'main' })).broker).toStrictEqual({
    url: BROKER,
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
    branch: 'main',
  })
  const publishing = { ...NONE, 'broker-url': BROKER, 'provider-version': 'abc', branch: 'main', publish: true }
  expect((await parsePactSources(publishing)).broker).toStrictEqual({
    url: BROKER,
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
    providerVersion: 'abc',
    branch: 'main',
    publish: true,
  })
})

it('refuses every broker option without --broker-url', async () => {
  const says = 'selectors, --provider-version, --branch and --publish need --broker-url: they are about a broker'
  for (const values of [
    { 'consumer-branch': ['main'] },
    { 'main-branch': true },
    { 'deployed-or-released': true },
    { 'consumer-version-selectors': '[{"branch":"main"}]' },
    { 'provider-version': '1.2.3' },
    { branch: 'main' },
    { publish: true },
  ]) {
    expect(await refusalOf(values), JSON.stringify(values)).toBe(says)
  }
})

it('refuses --publish without both a provider version and a branch', async () => {
  const says = '--publish needs --provider-version and --branch: the broker records results against a version on a branch'
  for (const values of [{}, { 'provider-version': '1' }, { branch: 'main' }]) {
    expect(await refusalOf({ 'broker-url': BROKER, publish: true, ...values }), JSON.stringify(values)).toBe(says)
  }
})

it('refuses an empty provider version or branch, and bad selectors or broker URL', async () => {
  const says = '--provider-version and --branch must not be empty'
  expect(await refusalOf({ 'broker-url': BROKER, 'provider-version': '' })).toBe(says)
  expect(await refusalOf({ 'broker-url': BROKER, branch: '' })).toBe(says)
  expect(await refusalOf({ 'broker-url': BROKER, 'consumer-version-selectors': '[]' })).toBe(
    '--consumer-version-selectors must be a non-empty JSON array of selectors',
  )
  expect(await refusalOf({ 'broker-url': 'broker.example' })).toBe('--broker-url must be an http or https URL such as https://staging.example/v1')
})

import { expect, it } from 'vitest'
import { DEFAULT_CONSUMER_VERSION_SELECTORS, parseConsumerVersionSelectors } from '../../src/verify/consumer-version-selectors.js'
import { createRunId, isRunId, markName, runMarker } from '../../src/deployment/run-marker.js'
import { createScrubber, REDACTED } from '../../src/service/credentials.js'

it('scrubs every secret, as written and percent-encoded, the longest first, and skips empty ones', () => {
  const scrub = createScrubber(['key+1/=', 'key+1/=-longer', undefined, ''])
  expect(scrub('a key+1/= b key%2B1%2F%3D c key+1/=-longer')).toBe('a [redacted] b [redacted] c [redacted]')
  expect(scrub('nothing secret')).toBe('nothing secret')
})

it('makes run ids from the time and a random suffix, and markers from them', () => {
  const id = createRunId(new Date('2030-12-05T09:30:00.123Z'), () => 0.2391)
  expect(id).toBe('20301205T093000Z-3d35')
  expect(isRunId(id)).toBe(true)
  expect(runMarker('verify', id)).toBe('[animals-mock verify 20301205T093000Z-3d35]')
  expect(markName('Biscuit', runMarker('parity', 'ci-1'))).toBe('Biscuit [animals-mock parity ci-1]')
  expect(markName('Biscuit', undefined)).toBe('Biscuit')
})

it('reads consumer version selectors as Pact writes them, refusing unknown fields and bad values', () => {
  expect(parseConsumerVersionSelectors('[{"branch":"main"},{"deployedOrReleased":true},{"mainBranch":true,"consumer":"web"}]')).toEqual({
    ok: true,
    value: [{ branch: 'main' }, { deployedOrReleased: true }, { mainBranch: true, consumer: 'web' }],
  })
  for (const [text, says] of [
    ['{"branch":"main"}', 'non-empty JSON array'],
    ['[]', 'non-empty JSON array'],
    ['[{"branch":""}]', 'selector 1: "branch" must be a non-empty string'],
    ['[{"mainBranch":false}]', '"mainBranch" can only be true'],
    ['[{"brunch":"main"}]', '"brunch" is not a selector field'],
    ['[{}]', 'names nothing'],
    ['[{"branch":', 'is not JSON'],
  ] as const) {
    const parsed = parseConsumerVersionSelectors(text)
    expect(parsed.ok ? '' : parsed.error, text).toContain(says)
  }
})

it('scrubs every occurrence of a secret, a secret inside another whole, and leaves text without secrets as it is', () => {
  const scrub = createScrubber(['abc', 'xabcx', 'k y'])
  expect(scrub('abc abc xabcx k y k%20y')).toBe('[redacted] [redacted] [redacted] [redacted] [redacted]')
  expect(createScrubber([])('abc')).toBe('abc')
  expect(createScrubber([undefined, ''])('a b, undefined')).toBe('a b, undefined')
  expect(REDACTED).toBe('[redacted]')
})

it('makes a run id of the time to the second and four hex digits, from 0000 to ffff', () => {
  expect(createRunId(new Date('2030-01-02T03:04:05.000Z'), () => 0)).toBe('20300102T030405Z-0000')
  expect(createRunId(new Date('2030-01-02T03:04:05.999Z'), () => 0.99999999)).toBe('20300102T030405Z-ffff')
  expect(createRunId(new Date('2030-01-02T03:04:05Z'), () => 0.5)).toBe('20300102T030405Z-8000')
  expect(createRunId(new Date('2030-01-02T03:04:05Z'), () => 1 / 0x10000)).toBe('20300102T030405Z-0001')
})

it('accepts every field a broker knows, and "latest" as true or false', () => {
  const all = {
    branch: 'b', fallbackBranch: 'fb', environment: 'staging', consumer: 'web', tag: 't', fallbackTag: 'ft',
    mainBranch: true, matchingBranch: true, deployedOrReleased: true, deployed: true, released: true, latest: false,
  }
  expect(parseConsumerVersionSelectors(JSON.stringify([all, { tag: 'prod', latest: true }]))).toEqual({ ok: true, value: [all, { tag: 'prod', latest: true }] })
})

it('says which selector is wrong and why', () => {
  const known = 'branch, fallbackBranch, environment, consumer, tag, fallbackTag, mainBranch, matchingBranch, deployedOrReleased, deployed, released, latest'
  for (const [text, error] of [
    ['null', 'must be a non-empty JSON array of selectors'],
    ['[{"branch":"main"},[]]', 'selector 2: must be an object'],
    ['[null]', 'selector 1: must be an object'],
    ['["main"]', 'selector 1: must be an object'],
    ['[{"branch":"main"},{"environment":1}]', 'selector 2: "environment" must be a non-empty string'],
    ['[{"consumer":null}]', 'selector 1: "consumer" must be a non-empty string'],
    ['[{"released":"true"}]', 'selector 1: "released" can only be true'],
    ['[{"deployed":1}]', 'selector 1: "deployed" can only be true'],
    ['[{"latest":"yes"}]', 'selector 1: "latest" must be true or false'],
    ['[{"branch":"main","toString":true}]', `selector 1: "toString" is not a selector field (known: ${known})`],
    ['[{}]', 'selector 1: names nothing to select'],
    ['', 'is not JSON; write an array such as [{"branch":"main"}]'],
  ] as const) {
    expect(parseConsumerVersionSelectors(text), text).toEqual({ ok: false, error })
  }
})

it('selects each consumer\'s main branch and whatever is deployed or released unless told otherwise', () => {
  expect(DEFAULT_CONSUMER_VERSION_SELECTORS).toEqual([{ mainBranch: true }, { deployedOrReleased: true }])
})

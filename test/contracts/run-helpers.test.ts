import { expect, it } from 'vitest'
import { parseConsumerVersionSelectors } from '../../src/contracts/consumer-version-selectors.js'
import { createRunId, markName, RUN_ID_PATTERN, runMarker } from '../../src/contracts/run-marker.js'
import { createScrubber } from '../../src/contracts/scrub.js'

it('scrubs every secret, as written and percent-encoded, the longest first, and skips empty ones', () => {
  const scrub = createScrubber(['key+1/=', 'key+1/=-longer', undefined, ''])
  expect(scrub('a key+1/= b key%2B1%2F%3D c key+1/=-longer')).toBe('a [redacted] b [redacted] c [redacted]')
  expect(scrub('nothing secret')).toBe('nothing secret')
})

it('makes run ids from the time and a random suffix, and markers from them', () => {
  const id = createRunId(new Date('2030-12-05T09:30:00.123Z'), () => 0.2391)
  expect(id).toBe('20301205T093000Z-3d35')
  expect(RUN_ID_PATTERN.test(id)).toBe(true)
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

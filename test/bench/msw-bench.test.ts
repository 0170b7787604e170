import { expect, it } from 'vitest'
import { measureMswOverhead } from '../../bench/msw.js'

// Keeps `npm run bench:msw` (and the figures a future `npm run bench` reads) working; times are not checked.
it('measures both routes through the fake and the constant handlers and returns their ratios', async () => {
  const figures = await measureMswOverhead({ requests: 20, rounds: 1, warmUp: 5 })
  expect(figures.map((figure) => figure.route)).toEqual(['GET /pets?limit=20', 'GET /pets/{id}'])
  for (const figure of figures) {
    expect(figure.requests).toBe(20)
    for (const value of [figure.fakeMs, figure.constantMs, figure.sameMatcherMs, figure.ratio, figure.ratioSameMatcher]) {
      expect(Number.isFinite(value) && value > 0).toBe(true)
    }
  }
})

import { coreOf } from '../../src/fake/assemble-fake.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CONTROL_BASE, createControl } from '../../src/fake/control.js'
import { jsonPage, createSite } from '../../src/site/site.js'
import { createFake, type Fake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { createControlClient } from '../support/api-client.js'

// Speed belongs in benchmarks (bench/responsiveness.ts measures p99); this checks only that the
// loop is never held for long while a large seed or snapshot is taken in.
let fake: Fake
let server: RunningServer
beforeAll(async () => {
  fake = createFake({ pets: [] })
  const pages = new Map([['/healthz', jsonPage({ ok: true })]])
  server = await startServer({ app: createSite({ api: fake, control: createControl({ core: coreOf(fake) }), pages }) })
})
afterAll(() => server.close())

/** Runs `work` while asking /healthz every 20 ms; resolves with the longest wait for an answer. */
async function longestWaitDuring(work: () => Promise<unknown>): Promise<{ longest: number; samples: number }> {
  let running = true
  let longest = 0
  let samples = 0
  const probe = (async () => {
    while (running) {
      const started = performance.now()
      await fetch(`${server.url}/healthz`)
      longest = Math.max(longest, performance.now() - started)
      samples += 1
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  await work()
  running = false
  await probe
  return { longest, samples }
}

const control = () => createControlClient(`${server.url}${CONTROL_BASE}`)

it('keeps answering while 1,000,000 animals are seeded through the control API', async () => {
  const { longest, samples } = await longestWaitDuring(async () => {
    expect((await control().call('/seed', { method: 'POST', body: { count: 1_000_000, seed: 3 } })).status).toBe(201)
  })
  expect(fake.store.size).toBe(1_000_000)
  expect(samples).toBeGreaterThan(5)
  expect(longest).toBeLessThan(1000)
}, 60_000)

it('keeps answering while a snapshot of 1,000,000 animals is loaded', async () => {
  const snapshot = (await control().call('/snapshot')).text
  fake.reset([])
  const { longest, samples } = await longestWaitDuring(async () => {
    expect((await control().call('/snapshot', { method: 'PUT', body: snapshot })).status).toBe(200)
  })
  expect(fake.store.size).toBe(1_000_000)
  expect(samples).toBeGreaterThan(5)
  expect(longest).toBeLessThan(1000)
}, 60_000)

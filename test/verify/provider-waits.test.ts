import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { pactFilePath } from '../../src/contracts/pact-files.js'
import type { Handler } from '../../src/service/http.js'
import { startVerifiableFake, verifyAgainst } from '../support/pact-verification.js'

// Where the report says a request went unanswered, and how long it waits for provider states
// still being set up once the verifier is done. As in provider.test.ts, each run is a child
// process, on a pact of one interaction of the committed one.
type Interaction = { description: string; providerStates?: { name: string; params?: Record<string, unknown> }[] }
const committed = JSON.parse(readFileSync(pactFilePath(), 'utf8')) as { interactions: Interaction[] } & Record<string, unknown>
const dir = mkdtempSync(join(tmpdir(), 'verify-provider-waits-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const LIST_WITHOUT_KEY = 'a request to list animals without a key'

/** A pact file of the committed interaction `description`, with these provider states if given. */
function pactOf(name: string, description: string, providerStates?: Interaction['providerStates']): string {
  const found = committed.interactions.find((each) => each.description === description)
  if (found === undefined) throw new Error(`no interaction "${description}"`)
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify({ ...committed, interactions: [providerStates === undefined ? found : { ...found, providerStates }] }))
  return file
}

/** A port on 127.0.0.1 that nothing listens on: a connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

it('names the provider a request got no answer from, also without a timeout', async () => {
  // Pact's verifier follows a redirect; one to a closed port gets no answer. (A dropped connection
  // would crash pact-js's proxy, and a request left unanswered waits for Pact's own 30 s.)
  const location = `http://127.0.0.1:${await closedPort()}/pets`
  const provider = await startVerifiableFake({
    wrap: (site: Handler): Handler => ({
      handle: (request) =>
        request.method === 'GET' && request.path === '/v1/pets' ? { status: 302, headers: { location }, body: '' } : site.handle(request),
    }),
  })
  try {
    const report = await verifyAgainst(provider.baseUrl, { pactUrls: [pactOf('no-answer', LIST_WITHOUT_KEY)] })
    expect(report.failed).toEqual([LIST_WITHOUT_KEY])
    expect(report.interactions[0]?.mismatches).toEqual([
      { kind: 'error', message: `no answer from ${provider.baseUrl}/pets (timed out, or the connection failed)` },
    ])
  } finally {
    await provider.close()
  }
})

// Each animal a state creates is answered well within the timeout, but there are many: the setup
// outlasts the timeout, and fails only 5 s after it began.
const TIMEOUT_MS = 1_000
const FAILS_AFTER_MS = 5_000

it('makes its report within the timeout of the verifier ending, not waiting for a setup still running', async () => {
  let first: number | undefined
  let refused = 0
  const provider = await startVerifiableFake({
    pets: [],
    wrap: (site: Handler): Handler => ({
      async handle(request) {
        if (request.method !== 'POST' || request.path !== '/v1/pets') return site.handle(request)
        first ??= Date.now()
        if (Date.now() - first < FAILS_AFTER_MS) return { ...(await site.handle(request)), delayMs: 100 }
        refused += 1
        return { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'broken', message: 'Creation is down.', status: 500 }) }
      },
    }),
  })
  try {
    const pact = pactOf('setup-outlasts-timeout', LIST_WITHOUT_KEY, [{ name: 'animals exist', params: { atLeast: 100 } }])
    const report = await verifyAgainst(provider.baseUrl, { pactUrls: [pact], timeoutMs: TIMEOUT_MS })
    // The setup failed in the end (the verification's process lives until it does), but seconds
    // after the report was made: the interaction failed for the verifier's giving up on its state,
    // and the setup's own failure is in no part of the report.
    expect(refused).toBe(1)
    expect(report.failed).toEqual([LIST_WITHOUT_KEY])
    expect(report.stateErrors).toEqual([])
    expect(report.interactions[0]?.mismatches.map((each) => each.kind)).toEqual(['error'])
  } finally {
    await provider.close()
  }
})

import { expect, it } from 'vitest'
import { type Handler, isDropped } from '../../src/service/http.js'
import { runCli } from '../support/cli.js'
import { createReportDir } from '../support/deployments.js'
import { PROVIDER_KEY, startVerifiableFake } from '../support/pact-verification.js'

// A deployment that echoes the caller's credential back, as a careless debug header might: the
// parity report shows a Sunset header's value, so the key would reach its output.
const echoingCredential = (site: Handler): Handler => ({
  async handle(request) {
    const reply = await site.handle(request)
    if (isDropped(reply) || reply.headers.sunset === undefined) return reply
    return { ...reply, headers: { ...reply.headers, sunset: request.headers.authorization ?? 'none' } }
  },
})

it('never prints or writes the key, even where the deployment echoes it back', async () => {
  const deployment = await startVerifiableFake({ wrap: echoingCredential })
  const reports = createReportDir()
  try {
    const run = await runCli(['parity', '--base-url', deployment.baseUrl, '--json', reports.path('p.json')], { ANIMALS_MOCK_VERIFY_KEY: PROVIDER_KEY })
    expect(run.stdout).toMatch(/header Sunset +.+ +Bearer \S+$/m)
    for (const text of [run.stdout, run.stderr, reports.read('p.json')]) expect(text).not.toContain(PROVIDER_KEY)
  } finally {
    reports.remove()
    await deployment.close()
  }
})

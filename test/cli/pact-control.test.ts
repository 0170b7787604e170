import { afterEach, expect, it } from 'vitest'
import { createControlClient } from '../support/api-client.js'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'
import { expectError } from '../support/expectations.js'

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

it('answers POST /__control/pact with 404 when it records no pact, saying how to record one', async () => {
  const cli = spawnCli(['serve', '--port', '0', '--quiet'])
  running.push(cli)
  const origin = (await waitForBaseUrl(cli)).replace(/\/v1$/, '')
  const written = await createControlClient(`${origin}/__control`).call('/pact', { method: 'POST' })
  expectError(written, 404, 'route_not_found')
  expect(written.json).toMatchObject({ message: 'No pact is being recorded: start the fake with --record-pact <dir> --consumer <name>.' })
})

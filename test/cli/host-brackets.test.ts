import { afterEach, expect, it } from 'vitest'
import { createApiClient } from '../support/api-client.js'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

it('binds an IPv6 --host written as in a URL, [::1], as ::1: loopback, so without a warning', async () => {
  const cli = spawnCli(['serve', '--port', '0', '--host', '[::1]'])
  running.push(cli)
  const baseUrl = await waitForBaseUrl(cli)
  expect(baseUrl).toMatch(/^http:\/\/\[::1\]:[0-9]+\/v1$/)
  expect(cli.stderr()).toBe('')
  expect((await createApiClient(baseUrl, 'k').authed('/pets')).status).toBe(200)
})

import { afterEach, expect, it } from 'vitest'
import { createApiClient } from '../support/api-client.js'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'

const KEY = 'terminal-key'
const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

/** Serves on a terminal, sends a request answered 200 and one answered 404, and returns what the terminal showed. */
async function shown(env: Record<string, string>): Promise<string> {
  const cli = spawnCli(['serve', '--port', '0', '--api-key', KEY], env, { terminal: true })
  running.push(cli)
  const api = createApiClient(await waitForBaseUrl(cli), KEY)
  expect((await api.authed('/pets')).status).toBe(200)
  expect((await api.authed('/pets/999')).status).toBe(404)
  while (!cli.stdout().includes('/v1/pets/999 ')) {
    if (cli.child.exitCode !== null) throw new Error(`serve ended: ${cli.stdout()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return cli.stdout()
}

// test/cli/logs.test.ts reads the log through a pipe, where it has no colours.
it('colours the status of each request line on a terminal, and resets the colour right after it', async () => {
  const text = await shown({})
  expect(text).toMatch(/^\d\d:\d\d:\d\d GET \/v1\/pets \u001b\[32m200\u001b\[0m \d+\.\dms$/m)
  expect(text).toMatch(/^\d\d:\d\d:\d\d GET \/v1\/pets\/999 \u001b\[33m404\u001b\[0m \d+\.\dms$/m)
})

it('prints no colours on a terminal when NO_COLOR is set', async () => {
  const text = await shown({ NO_COLOR: '1' })
  expect(text).toMatch(/^\d\d:\d\d:\d\d GET \/v1\/pets\/999 404 \d+\.\dms$/m)
  expect(text).not.toContain('\u001b[')
})

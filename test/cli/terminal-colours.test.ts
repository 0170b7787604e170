import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, it } from 'vitest'
import { createApiClient, createControlClient } from '../support/api-client.js'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'

const KEY = 'terminal-key'
const running: CliProcess[] = []
const targets: Server[] = []
afterEach(async () => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
  for (const server of targets.splice(0)) await new Promise((resolve) => server.close(resolve))
})

/** Runs the CLI on a terminal and returns it with the base URL it listens on. */
async function onTerminal(args: readonly string[], env: Record<string, string> = {}): Promise<{ cli: CliProcess; baseUrl: string }> {
  const cli = spawnCli(args, env, { terminal: true })
  running.push(cli)
  return { cli, baseUrl: await waitForBaseUrl(cli) }
}

/** What the terminal shows once a line for `path` is there. */
async function shownOnceLogged(cli: CliProcess, path: string): Promise<string> {
  while (!cli.stdout().includes(` ${path} `)) {
    if (cli.child.exitCode !== null) throw new Error(`the CLI ended: ${cli.stdout()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return cli.stdout()
}

const line = (path: string, status: string) => new RegExp(`^\\d\\d:\\d\\d:\\d\\d GET ${path.replaceAll('/', '\\/')} ${status.replaceAll('[', '\\[')} \\d+\\.\\dms$`, 'm')

// test/cli/logs.test.ts reads the log through a pipe, where it has no colours.
it('colours the status of each request line by its class on a terminal, and resets the colour right after it', async () => {
  const { cli, baseUrl } = await onTerminal(['serve', '--port', '0', '--api-key', KEY])
  const api = createApiClient(baseUrl, KEY)
  const control = createControlClient(`${baseUrl.replace(/\/v1$/, '')}/__control`, KEY)
  expect((await api.authed('/pets')).status).toBe(200)
  expect((await api.authed('/pets/999')).status).toBe(404)
  expect((await control.call('/forced', { method: 'POST', body: { path: '/pets/1', status: 503, times: 1 } })).status).toBe(201)
  expect((await api.authed('/pets/1')).status).toBe(503)
  expect((await control.call('/forced', { method: 'POST', body: { path: '/pets/2', drop: true, times: 1 } })).status).toBe(201)
  await expect(api.authed('/pets/2')).rejects.toThrow()
  const text = await shownOnceLogged(cli, '/v1/pets/2')
  expect(text).toMatch(line('/v1/pets', '\u001b[32m200\u001b[0m'))
  expect(text).toMatch(line('/v1/pets/999', '\u001b[33m404\u001b[0m'))
  expect(text).toMatch(line('/v1/pets/1', '\u001b[31m503\u001b[0m'))
  expect(text).toMatch(line('/v1/pets/2', '\u001b[35mdropped\u001b[0m'))
})

// The fake answers no 3xx; a target behind the proxy may.
it('colours a redirect passed on by the proxy on a terminal', async () => {
  const target = createServer((_req, res) => res.writeHead(302, { location: '/elsewhere' }).end())
  targets.push(target)
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  const { port } = target.address() as AddressInfo
  const { cli, baseUrl } = await onTerminal(['proxy', '--port', '0', '--target', `http://127.0.0.1:${port}/v1`])
  const answer = await fetch(`${baseUrl}/pets`, { redirect: 'manual' })
  expect(answer.status).toBe(302)
  expect(await shownOnceLogged(cli, '/v1/pets')).toMatch(line('/v1/pets', '\u001b[36m302\u001b[0m'))
})

it('prints no colours on a terminal when NO_COLOR is set', async () => {
  const { cli, baseUrl } = await onTerminal(['serve', '--port', '0', '--api-key', KEY], { NO_COLOR: '1' })
  expect((await createApiClient(baseUrl, KEY).authed('/pets/999')).status).toBe(404)
  const text = await shownOnceLogged(cli, '/v1/pets/999')
  expect(text).toMatch(line('/v1/pets/999', '404'))
  expect(text).not.toContain('\u001b[')
})

import { networkInterfaces } from 'node:os'
import { afterEach, expect, it } from 'vitest'
import { createApiClient } from '../support/api-client.js'
import { type CliProcess, runCli, spawnCli, waitForBaseUrl } from '../support/cli.js'

// Boundaries of `serve`, met as a process: test/cli/serve-options.test.ts has the rest in-process.
const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

async function serving(args: readonly string[]): Promise<CliProcess> {
  const cli = spawnCli(['serve', '--port', '0', '--quiet', ...args])
  running.push(cli)
  await waitForBaseUrl(cli)
  return cli
}

it('takes each whole-number option at exactly its largest value', async () => {
  const cli = await serving(['--isolate', '--max-animals', '100000000', '--state-interval', '86400000', '--store-idle-minutes', '10080'])
  expect(cli.stderr()).toBe('')
})

it('binds any 127.x.y.z address, octets of one to three digits, without a warning', async () => {
  for (const host of ['127.0.0.10', '127.255.254.253']) expect((await serving(['--host', host])).stderr(), host).toBe('')
})

it('binds an IPv6 --host written as in a URL, [::1], as ::1: loopback, so without a warning', async () => {
  const cli = spawnCli(['serve', '--port', '0', '--host', '[::1]'])
  running.push(cli)
  const baseUrl = await waitForBaseUrl(cli)
  expect(baseUrl).toMatch(/^http:\/\/\[::1\]:[0-9]+\/v1$/)
  expect(cli.stderr()).toBe('')
  expect((await createApiClient(baseUrl, 'k').authed('/pets')).status).toBe(200)
})

it('binds 127.0.0.1 unless told otherwise, and warns when it binds every interface', async () => {
  const local = spawnCli(['serve', '--port', '0'])
  running.push(local)
  expect(await waitForBaseUrl(local)).toMatch(/^http:\/\/127\.0\.0\.1:/)
  expect(local.stderr()).toBe('')
  const open = spawnCli(['serve', '--port', '0', '--host', '0.0.0.0'])
  running.push(open)
  await waitForBaseUrl(open)
  expect(open.stderr()).toContain('warning: listening on every network interface')
})

const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((each) => each !== undefined && each.family === 'IPv4' && !each.internal)?.address

it('warns on any bind beyond this machine, and only then', async () => {
  const binds = ['0.0.0.0', ...(lanAddress === undefined ? [] : [lanAddress])]
  for (const host of binds) {
    const served = await serving(['--host', host])
    expect(served.stderr(), host).toContain('animals-mock: warning: listening on')
    expect(served.stderr()).toContain('--control-token')
  }
  for (const host of ['127.0.0.1', 'localhost']) {
    expect((await serving(['--host', host])).stderr(), host).toBe('')
  }
  expect((await runCli(['serve', '--control-cors', 'evil.example'])).code).toBe(2)
})

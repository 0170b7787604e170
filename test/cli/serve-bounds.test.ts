import { afterEach, expect, it } from 'vitest'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'

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

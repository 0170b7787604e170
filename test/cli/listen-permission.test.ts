import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { runCli } from '../support/cli.js'

// Linux lets a process without CAP_NET_BIND_SERVICE bind only from this port up (1024 by default);
// elsewhere the test is skipped.
const unprivilegedPortStart = process.platform === 'linux' ? Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8')) : 0

it.skipIf(unprivilegedPortStart <= 80)('says in one line that it may not listen on a privileged port, exit code 2', async () => {
  const { code, stdout, stderr } = await runCli(['serve', '--port', '80', '--host', '127.0.0.1'], {}, { unprivileged: true })
  expect(code).toBe(2)
  expect(stdout).toBe('')
  expect(stderr).toBe('animals-mock: cannot listen: no permission to listen on 127.0.0.1:80\n')
})

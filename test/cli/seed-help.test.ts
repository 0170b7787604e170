import { expect, it } from 'vitest'
import { runCli } from '../support/cli.js'

// test/cli/seed.test.ts runs seed in this process, against the help text it imports; a user
// meets the built CLI's own copy.
it('prints its usage for seed --help from the built CLI, exit code 0, writing nothing else', async () => {
  const { code, stdout, stderr } = await runCli(['seed', '--help', '--count', '5'])
  expect(code).toBe(0)
  expect(stderr).toBe('')
  expect(stdout).toMatch(/^Usage: animals-mock seed \[options\]\n/)
  expect(stdout).toContain('--count <n>')
})

import { expect, it } from 'vitest'
import { closedPort } from '../support/deployments.js'
import { runCli } from '../support/cli.js'

// test/cli/parity.test.ts runs parity in this process, against the help text and key pattern it
// imports. What a user meets is the built CLI: its own copy of them, read when it loads.

it('prints its usage for parity --help from the built CLI, exit code 0', async () => {
  const { code, stdout, stderr } = await runCli(['parity', '--help'])
  expect(code).toBe(0)
  expect(stderr).toBe('')
  expect(stdout).toMatch(/^Usage: animals-mock parity --base-url <url> \[options\]\n/)
  expect(stdout).toContain('ANIMALS_MOCK_VERIFY_KEY')
})

it('refuses a key with a space in its middle before sending anything, as a whole and not by its first or last word', async () => {
  const port = await closedPort()
  const { code, stdout, stderr } = await runCli(['parity', '--base-url', `http://127.0.0.1:${port}/v1`], { ANIMALS_MOCK_VERIFY_KEY: 'first last' })
  expect(code).toBe(2)
  expect(stdout).toBe('')
  expect(stderr).toBe('animals-mock: ANIMALS_MOCK_VERIFY_KEY is not a usable bearer token: only letters, digits and - . _ ~ + / (then = padding)\n')
})

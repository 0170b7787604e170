import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { runCli } from '../support/cli.js'

// @pact-foundation/pact is an optional peer dependency; the preload hides it from the CLI.
const WITHOUT_PACT = { NODE_OPTIONS: `--import=${fileURLToPath(new URL('../support/without-pact.mjs', import.meta.url))}` }

it('says in one line how to install Pact when verify needs it and it is not installed, exit code 2, before looking at the deployment', async () => {
  const { code, stdout, stderr } = await runCli(['verify', '--base-url', 'http://127.0.0.1:9/v1'], { ...WITHOUT_PACT, ANIMALS_MOCK_VERIFY_KEY: 'some-key' })
  expect(code).toBe(2)
  expect(stdout).toBe('')
  expect(stderr).toBe("animals-mock: verify needs Pact's verifier, which is not installed: npm install --save-dev @pact-foundation/pact\n")
})

it('shows verify --help without Pact installed', async () => {
  const { code, stdout, stderr } = await runCli(['verify', '--help'], WITHOUT_PACT)
  expect(code).toBe(0)
  expect(stderr).toBe('')
  expect(stdout).toMatch(/^Usage: animals-mock verify --base-url <url> \[options\]\n/)
})

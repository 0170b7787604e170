import { chmodSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { runCli } from '../support/cli.js'

it('refuses, in one line, a state file in a folder it may write in but not list, and leaves the folder as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-unlisted-'))
  chmodSync(dir, 0o333)
  const file = join(dir, 'state.json')
  const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--state-file', file], {}, { unprivileged: true })
  expect(code).toBe(2)
  expect(stdout).toBe('')
  expect(stderr).toBe(
    `animals-mock: cannot clear what a stopped fake left of the state file ${file}: no permission to list ${dir} or remove its state.json.*.tmp files\n`,
  )
  chmodSync(dir, 0o700)
  expect(readdirSync(dir)).toEqual([])
})

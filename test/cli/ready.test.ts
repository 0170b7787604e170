import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { spawnCli } from '../support/cli.js'

// Ready means ready: a supervisor may stop the fake the moment it reads "listening on".
it('stops gracefully when SIGTERM comes within a millisecond of the ready line, 50 times in a row', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ready-'))
  const once = async (round: number): Promise<void> => {
    const file = join(dir, `state-${round}.json`)
    const cli = spawnCli(['serve', '--port', '0', '--quiet', '--state-file', file])
    cli.child.stdout?.on('data', (text: string) => {
      if (text.includes('animals-mock listening on')) cli.child.kill('SIGTERM')
    })
    expect(await cli.exited, `round ${round}: ${cli.stderr()}`).toBe(0)
    expect(cli.stdout()).toContain('animals-mock stopped')
    expect(existsSync(file), `round ${round}`).toBe(true)
  }
  for (let round = 0; round < 50; round += 5) await Promise.all([0, 1, 2, 3, 4].map((offset) => once(round + offset)))
}, 120_000)

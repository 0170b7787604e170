import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The README's shell commands, in order, as one command each (a line ending in \ continues).
 * Set-up, installs and the CI recipe need a fresh clone, an app or staging: they are tried
 * elsewhere (.ci/run, the consumer apps) and left out here.
 */
function readmeCommands(): { run: string[]; skipped: string[] } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '')
  const commands = blocks.flatMap((block) => block.replace(/\\\n/g, '\\\u0000').split('\n')).map((line) => line.replace(/\\\u0000/g, '\\\n'))
  const isCommand = (line: string): boolean => line.trim() !== '' && !line.trim().startsWith('#')
  const needsElsewhere = /^(npm |npx |export |PORT=)/
  return {
    run: commands.filter((line) => isCommand(line) && !needsElsewhere.test(line)),
    skipped: commands.filter((line) => isCommand(line) && needsElsewhere.test(line)),
  }
}

// `npm start` is `node dist/cli.js serve`: the script starts that first, and each `serve` in the
// README replaces the running fake, on a free port; curl reaches whichever runs, and fails on an
// error status, so an example that no longer works as written fails here.
const PRELUDE = String.raw`
set -euo pipefail
trap 'echo "README command failed: $BASH_COMMAND" >&2' ERR
FAKE_PID=''
PORT=''
restart_fake() {
  if [ -n "$FAKE_PID" ]; then kill "$FAKE_PID"; wait "$FAKE_PID" || true; fi
  local log; log=$(mktemp)
  node dist/cli.js serve "$@" --port 0 > "$log" 2>&1 &
  FAKE_PID=$!
  for _ in $(seq 1 500); do
    PORT=$(sed -n 's|^animals-mock listening on http://127.0.0.1:\([0-9]*\)/v1$|\1|p' "$log")
    if [ -n "$PORT" ]; then return 0; fi
    sleep 0.02
  done
  cat "$log" >&2
  return 1
}
trap 'if [ -n "$FAKE_PID" ]; then kill "$FAKE_PID"; fi' EXIT
curl() { command curl --fail-with-body --max-time 20 "$${'{'}@//127.0.0.1:4010/127.0.0.1:$PORT}"; }
restart_fake
`

it('runs the README shell examples in order against a live fake', () => {
  const { run, skipped } = readmeCommands()
  expect(skipped.every((line) => /^(npm (ci|start|test|install|run)|npx (msw|animals-mock)|export |PORT=)/.test(line))).toBe(true)
  expect(run.length).toBeGreaterThan(20)
  const script = PRELUDE + run.map((line) => line.replace(/^node dist\/cli\.js serve /, 'restart_fake ')).join('\n') + '\n'
  const temporary = mkdtempSync(join(tmpdir(), 'readme-shell-'))
  const result = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TMPDIR: temporary }, timeout: 60_000 })
  expect({ status: result.status, stderr: result.stderr.slice(-2000) }).toEqual({ status: 0, stderr: expect.not.stringContaining('README command failed') })
  // What the examples print: the contract, 1,000 seeded animals, the journal.
  expect(result.stdout).toContain('openapi: 3.0.3')
  expect(result.stdout).toContain('"added":1000')
  expect(result.stdout).toContain('"entries"')
})

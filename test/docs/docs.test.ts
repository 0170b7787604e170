import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]

/** The text outside fenced code blocks, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '')
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading = ''] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** Every relative link and image of a document: [text](target), ![alt](target). */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target))
}

it.each(DOCUMENTS)('%s: every relative link and #anchor resolves', (document) => {
  const text = readFileSync(join(ROOT, document), 'utf8')
  const broken: string[] = []
  for (const target of linksOf(text)) {
    const [path = '', anchor] = target.split('#')
    const file = path === '' ? join(ROOT, document) : join(ROOT, dirname(document), path)
    if (!existsSync(file)) {
      broken.push(`${target}: no such file`)
      continue
    }
    if (anchor !== undefined && !(statSync(file).isFile() && anchorsOf(readFileSync(file, 'utf8')).has(anchor))) {
      broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, file)}`)
    }
  }
  expect(broken).toEqual([])
})

/** The repository paths a document names in its prose, in code spans or links: `src/...`, `test/...`, `bench/...`. */
function pathsOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/(?<![\w/.-])(?:\.\.\/)*((?:src|test|bench|examples)\/[\w./-]*[\w/])/g)].map((match) => match[1] ?? '')
}

// Files move as the code is laid out anew; a document that names the old place sends its reader nowhere.
it.each(DOCUMENTS)('%s: every file and folder of the repository it names exists', (document) => {
  const missing = pathsOf(readFileSync(join(ROOT, document), 'utf8')).filter((path) => !path.includes('*') && !existsSync(join(ROOT, path)))
  expect(missing).toEqual([])
})

it('finds broken links: a missing file and a missing anchor are reported', () => {
  expect(linksOf('[a](docs/none.md) [b](#nowhere) [c](https://example.com) ![d](x.png)')).toEqual(['docs/none.md', '#nowhere', 'x.png'])
  expect(pathsOf('see `src/core/app.ts`, [it](../test/x.test.ts) and `dist/src/y.js`.\n```\n// src/main.ts\n```')).toEqual(['src/core/app.ts', 'test/x.test.ts'])
  expect(anchorsOf('# The `animals-mock verify` command\n## For CI: verify (a deployment)\n## Twice\n## Twice')).toEqual(
    new Set(['the-animals-mock-verify-command', 'for-ci-verify-a-deployment', 'twice', 'twice-1']),
  )
})

it('keeps the README short enough to read in ten minutes: at most 25 KB, set-up first, with contents', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(25_000)
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1])
  expect(headings.slice(0, 2)).toEqual(['Contents', 'Set-up: two commands'])
  expect(readme).toContain('npm ci && npm start')
  expect(readme).toContain('npm ci && npm test')
})

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

it('shows each recipe of docs/frontend.md as the file of the consumer app that runs it, unchanged', () => {
  const doc = readFileSync(join(ROOT, 'docs/frontend.md'), 'utf8')
  const blocks = [...doc.matchAll(/^```\w+\n([\s\S]*?)^```$/gm)].map((match) => match[1])
  const apps = join(ROOT, 'test/consumers/apps')
  // A block names its file in the sentence before it: `app/path` or `path` after an app named earlier.
  const named = [...doc.matchAll(/`((?:playwright|vitest|storybook|client|jest|next|angular|nestjs)[\w-]*\/[\w./-]+\.(?:ts|tsx|mjs|js|json))`/g)].map((match) => match[1] ?? '')
  const shown = named.filter((file) => existsSync(join(apps, file)))
  expect(shown.length).toBeGreaterThanOrEqual(9)
  for (const file of shown.filter((name) => !/\.(test|spec|e2e|e2e-spec)\.[jt]sx?$/.test(name))) {
    expect(blocks, `${file} is not shown as it is`).toContain(readFileSync(join(apps, file), 'utf8'))
  }
})

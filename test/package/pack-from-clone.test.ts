// `npm pack` (and `npm publish`) from a fresh clone: `git clone`, `npm ci`, `npm pack`, with no
// build by hand. The clone is this checkout's files as git sees them (tracked, or new and not
// ignored: no dist/, no reports/), with this checkout's node_modules, as `npm ci` would make them.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const clone = mkdtempSync(join(tmpdir(), 'animals-clone-'))
afterAll(() => rmSync(clone, { recursive: true, force: true }))

it('builds before it packs: the tarball of a fresh clone holds dist/, the bin and the CommonJS declarations', () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((file) => file !== '')
  for (const file of files) {
    mkdirSync(dirname(join(clone, file)), { recursive: true })
    cpSync(join(ROOT, file), join(clone, file))
  }
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'))
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: clone, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } })) as [{ files: { path: string }[] }]
  const paths = packed.files.map((file) => file.path)
  expect(paths).toEqual(expect.arrayContaining(['dist/cli.js', 'dist/index.js', 'dist/index.d.ts', 'dist/msw/index.js', 'dist/msw/index.d.cts', 'dist/node/index.js', 'dist/contracts/package-root.cjs', 'contracts/openapi.yaml', 'fixtures/default.json']))
  expect(paths.filter((path) => path.startsWith('test/') || path.startsWith('src/'))).toEqual([])
})

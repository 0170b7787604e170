import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkSync } from 'recheck'
import { expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
// A regular-expression literal after a token that can precede one; good enough for this code base,
// and the count check below fails if it ever stops finding them.
const LITERAL = /(?<=[=(,:!&|?{};[]\s*)\/(?![/*])((?:\\.|\[(?:\\.|[^\]\n])*\]|[^/\n\\[])+)\/([dgimsuy]*)/g

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

it('uses no regular expression that can backtrack catastrophically (checked with recheck)', () => {
  const found: { file: string; source: string; flags: string }[] = []
  for (const file of sources(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(LITERAL)) {
      found.push({ file: file.slice(SRC.length), source: match[1] ?? '', flags: match[2] ?? '' })
    }
  }
  expect(found.length).toBeGreaterThan(10)
  for (const { file, source, flags } of found) {
    expect(() => new RegExp(source, flags), `${file}: /${source}/ is not a regular expression`).not.toThrow()
    expect(checkSync(source, flags).status, `${file}: /${source}/${flags}`).toBe('safe')
  }
})

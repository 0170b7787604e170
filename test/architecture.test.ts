import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkSync } from 'recheck'
import { expect, it } from 'vitest'
import { functionLengths } from './support/function-lengths.js'

// The rooms of src/ and the rooms each may import from, as docs/architecture.md's table names
// them: the document is the rule, so the picture a newcomer reads is the one the imports keep.
const ARCHITECTURE = readFileSync(fileURLToPath(new URL('../docs/architecture.md', import.meta.url)), 'utf8')
const ROOMS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  [...ARCHITECTURE.matchAll(/^\| `([\w-]+)\/` \| .+ \| ([^|]+) \|$/gm)].map(([, room = '', uses = '']) => [
    room,
    uses
      .trim()
      .split(', ')
      .map((name) => ({ nothing: '', 'the entry points': '.', 'every room': '*' })[name] ?? name)
      .filter((name) => name !== ''),
  ]),
)

/** Rooms that run in any JavaScript runtime: only these packages, no node:*, no clock or randomness of their own. */
const NEUTRAL: Readonly<Record<string, readonly string[]>> = { spec: [], service: ['lossless-json'], store: [], memory: ['lossless-json'], fake: ['lossless-json'] }

const SRC = fileURLToPath(new URL('../src/', import.meta.url))

/** The rooms of package.json's `imports` (`#name`), which cross rooms as relative imports do. */
const PACKAGE_IMPORTS: Readonly<Record<string, string>> = { '#package-root': 'contracts', '#seed-generator': 'seed' }
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/gm

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []))
}

const roomOf = (file: string): string => {
  const parts = relative(SRC, file).split('/')
  return parts.length === 1 ? '.' : (parts[0] ?? '.')
}

it('has a room for every folder of src/, and no room without one', () => {
  const folders = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  expect(folders.sort()).toEqual(Object.keys(ROOMS).sort())
})

it('imports only along the arrows between rooms', () => {
  const crossings: string[] = []
  for (const file of sources(SRC)) {
    const room = roomOf(file)
    const allowed = ROOMS[room]
    if (allowed === undefined || allowed.includes('*')) continue // the entry points at src/ and the CLI may import any room
    for (const [, specifier = '', dynamic = ''] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = specifier || dynamic
      const into = target.startsWith('.') ? roomOf(join(file, '..', target)) : PACKAGE_IMPORTS[target]
      if (into === undefined) continue
      if (into !== room && !allowed.includes(into)) crossings.push(`${relative(SRC, file)} imports ${target} (${room} -> ${into})`)
    }
  }
  expect(crossings).toEqual([])
})

it('keeps the spec, the service, the store port, the memory adapter and the fake free of transports, I/O, Faker, msw, the clock and randomness', () => {
  for (const [room, packages] of Object.entries(NEUTRAL)) {
    const files = sources(join(SRC, room))
    expect(files.length, room).toBeGreaterThan(0)
    for (const file of files) {
      const source = readFileSync(file, 'utf8')
      for (const [, specifier = '', dynamic = ''] of source.matchAll(IMPORT)) {
        const target = specifier || dynamic
        expect(target.startsWith('.') || packages.includes(target), `${relative(SRC, file)} imports ${target}`).toBe(true)
      }
      expect(source, `${relative(SRC, file)} reads the clock or randomness`).not.toMatch(/Date\.now\(|Math\.random\(|new Date\(\)|performance\.now/)
    }
  }
})

/** Every relative import of a file of src/, type imports included, as the files it names. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(([, specifier = '', dynamic = '']) => specifier || dynamic).filter((target) => target.startsWith('.')).map((target) => join(file, '..', target).replace(/\.js$/, '.ts'))
}

it('has no circle of imports between files: no file imports, through any chain, a file that imports it back', () => {
  const files = sources(SRC)
  const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]))
  const circles: string[] = []
  // Depth-first, three colours: a file met again while it is on the path closes a circle.
  const state = new Map<string, 'open' | 'done'>()
  const visit = (file: string, path: readonly string[]): void => {
    state.set(file, 'open')
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), file, next].map((each) => relative(SRC, each)).join(' -> '))
      else if (state.get(next) === undefined) visit(next, [...path, file])
    }
    state.set(file, 'done')
  }
  for (const file of files) if (state.get(file) === undefined) visit(file, [])
  expect(circles).toEqual([])
})

it('keeps the fake over the port: in fake/ only assemble-fake.ts names an adapter, and that the memory one', () => {
  const named = sources(join(SRC, 'fake')).flatMap((file) => importsOf(file).filter((target) => ['memory', 'redis'].includes(roomOf(target))).map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`))
  expect(named.every((line) => line.startsWith('fake/assemble-fake.ts -> memory/'))).toBe(true)
  expect(named.length).toBeGreaterThan(0)
})

it('has no function of more than 60 lines of its own (the functions nested in one counted apart)', () => {
  const long = sources(SRC)
    .flatMap(functionLengths)
    .filter((fn) => fn.ownLines > 60)
    .map((fn) => `${relative(SRC, fn.file)}:${fn.line} ${fn.name}: ${fn.ownLines} lines`)
  expect(long).toEqual([])
})

// A factory whose closures carry it can pass the rule above and still not be held in the head.
it('has no function of more than 80 lines in all, the functions nested in it included', () => {
  const long = sources(SRC)
    .filter((file) => !file.endsWith('openapi.generated.ts'))
    .flatMap(functionLengths)
    .filter((fn) => fn.lines > 80)
    .map((fn) => `${relative(SRC, fn.file)}:${fn.line} ${fn.name}: ${fn.lines} lines`)
  expect(long).toEqual([])
})

it('gives the dashboard no runtime import from outside its folder: its modules are served one by one as compiled', () => {
  for (const file of sources(join(SRC, 'dashboard'))) {
    for (const [statement = ''] of readFileSync(file, 'utf8').matchAll(/^import [^\n]*from '([^']+)'/gm)) {
      const outside = !statement.includes("from './")
      expect(outside && !statement.startsWith('import type '), `${relative(SRC, file)}: ${statement}`).toBe(false)
    }
  }
})

// A regular-expression literal after a token that can precede one; good enough for this code base,
// and the count check below fails if it ever stops finding them.
const LITERAL = /(?<=[=(,:!&|?{};[]\s*)\/(?![/*])((?:\\.|\[(?:\\.|[^\]\n])*\]|[^/\n\\[])+)\/([dgimsuy]*)/g

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

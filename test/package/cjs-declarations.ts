/**
 * Part of `npm run build`: CommonJS twins (`.d.cts`) of the declarations `animals-mock/msw` reaches,
 * which package.json's `exports` gives a `require` importer. A CommonJS app (NestJS, ts-jest)
 * resolves `msw` with the `require` condition, and its `setupServer` takes msw's CommonJS classes;
 * read from our ES declarations, `createHandlers` would return msw's ES classes, which TypeScript
 * takes for others (TS2345, "Property 'resolver' is protected"). Read from a twin, our `msw` is the
 * app's. Only declarations are twinned: at run time both conditions load the one ES build.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url))

/** The entry points whose declarations get twins: those that reach msw's types. */
export const TWINNED_ENTRIES = ['msw/index.d.ts'] as const

/** A relative specifier of a declaration, as tsc writes them (`from './x.js'`, `import('./x.js')`). */
const RELATIVE = /((?:from|import\()\s*')(\.{1,2}\/[^']+)\.js'/g

/** Writes a `.d.cts` beside each declaration the entries reach, its relative imports pointing at twins too; returns how many. */
export function writeCjsDeclarations(dist = DIST): number {
  const done = new Set<string>()
  const twin = (file: string): void => {
    if (done.has(file)) return
    done.add(file)
    const text = readFileSync(file, 'utf8')
    for (const [, , specifier] of text.matchAll(RELATIVE)) twin(resolve(dirname(file), `${specifier}.d.ts`))
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text.replace(RELATIVE, "$1$2.cjs'"))
  }
  for (const entry of TWINNED_ENTRIES) twin(join(dist, entry))
  return done.size
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeCjsDeclarations()

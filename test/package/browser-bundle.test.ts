import { build, type Metafile } from 'esbuild'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

// The built entry, as an app's bundler meets it in node_modules/animals-mock (`npm test` builds first).
const MSW_ENTRY = fileURLToPath(new URL('../../dist/msw/index.js', import.meta.url))
const README = fileURLToPath(new URL('../../README.md', import.meta.url))

/** Bundles `animals-mock/msw` in one file, no splitting, minified, esbuild's defaults otherwise. */
async function bundle(platform: 'browser' | 'node', withMsw = false): Promise<{ inputs: string[]; bytes: number }> {
  const result = await build({
    entryPoints: [MSW_ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: withMsw ? [] : ['msw', 'msw/*'],
  })
  const metafile: Metafile = result.metafile
  const output = Object.values(metafile.outputs)[0]
  return { inputs: Object.keys(metafile.inputs), bytes: output?.bytes ?? 0 }
}

/** The sizes the README states, in bytes (its KB are 1,000 bytes). */
function readmeSizes(): { handlers: number; withMsw: number; withFaker: number } {
  const text = readFileSync(README, 'utf8').replace(/\s+/g, ' ')
  const match = /\*\*([0-9]+) KB\*\* minified \(([0-9]+) KB with msw 2 bundled in; ([0-9]+) KB with Faker/.exec(text)
  if (match === null) throw new Error('the README no longer states the browser bundle sizes where this test reads them')
  const [handlers, withMsw, withFaker] = match.slice(1).map((figure) => Number(figure) * 1000) as [number, number, number]
  return { handlers, withMsw, withFaker }
}

/** Within 10% of the stated figure, either way. */
function expectNear(measured: number, stated: number, what: string): void {
  expect(Math.abs(measured - stated) / stated, `${what}: measured ${measured} bytes, the README says ${stated}`).toBeLessThanOrEqual(0.1)
}

it('leaves Faker out of a browser bundle of the msw handlers, without splitting, at the size the README states', async () => {
  const page = await bundle('browser')
  expect(page.inputs.filter((input) => input.includes('@faker-js'))).toEqual([])
  expect(page.inputs.some((input) => input.endsWith('seed/generator-absent.js'))).toBe(true)
  expectNear(page.bytes, readmeSizes().handlers, 'the handlers, the core and the default animals')
  expectNear((await bundle('browser', true)).bytes, readmeSizes().withMsw, 'with msw bundled in')
})

it('would see Faker if the bundle carried it: a Node bundle, where seeding works, does, at the size the README states', async () => {
  const server = await bundle('node')
  expect(server.inputs.some((input) => input.includes('@faker-js/faker'))).toBe(true)
  expectNear(server.bytes, readmeSizes().withFaker, 'with Faker')
})

// Node and Jest load every module an import reaches, shaken or not: Faker's root entry reaches its
// 70 locales (171 files, 400 ms to load in Node, 8 s to compile under Jest's Babel transform), its
// English entry five files.
it('reaches only Faker\'s English and base data from the generator, as Node and Jest load it', async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../dist/seed/generate-pets.js', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    logLevel: 'silent',
    treeShaking: false,
  })
  const faker = Object.keys(result.metafile.inputs).filter((input) => input.includes('@faker-js/faker'))
  expect(faker.length).toBeGreaterThan(0)
  expect(faker.length).toBeLessThanOrEqual(8)
  expect(faker.filter((input) => /\/(locale\/)?(?!en[-.]|base[-.])[a-z]{2}(_[A-Z]{2})?[-.][\w-]*\.js$/.test(input))).toEqual([])
})

import { build, type Metafile } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

// The built entry, as an app's bundler meets it in node_modules/animals-mock (`npm test` builds first).
const MSW_ENTRY = fileURLToPath(new URL('../../dist/msw/index.js', import.meta.url))

/** Bundles `animals-mock/msw` in one file, no splitting, esbuild's defaults otherwise; msw stays out. */
async function bundle(platform: 'browser' | 'node'): Promise<{ inputs: string[]; bytes: number }> {
  const result = await build({
    entryPoints: [MSW_ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['msw', 'msw/*'],
  })
  const metafile: Metafile = result.metafile
  const output = Object.values(metafile.outputs)[0]
  return { inputs: Object.keys(metafile.inputs), bytes: output?.bytes ?? 0 }
}

it('leaves Faker out of a browser bundle of the msw handlers, without splitting', async () => {
  const page = await bundle('browser')
  expect(page.inputs.filter((input) => input.includes('@faker-js'))).toEqual([])
  expect(page.inputs.some((input) => input.endsWith('seed/generator-absent.js'))).toBe(true)
  // The handlers, the core and the embedded default animals: 38 KB when measured; Faker is 450 KB.
  expect(page.bytes).toBeLessThan(100_000)
})

it('would see Faker if the bundle carried it: a Node bundle, where seeding works, does', async () => {
  const server = await bundle('node')
  expect(server.inputs.some((input) => input.includes('@faker-js/faker'))).toBe(true)
  expect(server.bytes).toBeGreaterThan(400_000)
})

import { execFileSync } from 'node:child_process'
import { copyFile, mkdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, '../..')

/** Where `npm run example:build` puts the page; git ignores it. */
export const DEFAULT_OUT_DIR = join(HERE, 'dist')

/**
 * Builds the example page into `outDir`: the bundled app, its HTML, and msw's worker script put in
 * place by the msw CLI (`msw init`), since npm here never runs msw's postinstall.
 * @example await buildExample('/tmp/animals-example')
 */
export async function buildExample(outDir: string = DEFAULT_OUT_DIR): Promise<string> {
  await mkdir(outDir, { recursive: true })
  await build({
    entryPoints: [join(HERE, 'src/main.ts')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  })
  await copyFile(join(HERE, 'index.html'), join(outDir, 'index.html'))
  initWorker(outDir)
  return outDir
}

function initWorker(outDir: string): void {
  const require = createRequire(import.meta.url)
  const mswPackage = require.resolve('msw/package.json')
  const cli = join(dirname(mswPackage), (require(mswPackage) as { bin: { msw: string } }).bin.msw)
  // --no-save: copy the worker only, without the prompt that offers to edit package.json.
  execFileSync(process.execPath, [cli, 'init', outDir, '--no-save'], { cwd: ROOT, stdio: 'pipe' })
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = await buildExample(process.argv[2] ?? DEFAULT_OUT_DIR)
  console.log(`example built in ${outDir}`)
}

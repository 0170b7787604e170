import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { GENERATED_TYPES, generateContractTypes } from '../../contracts/codegen/generate.js'
import { NPM, run } from './app-process.js'
import { installApp, installNode24, packInto } from './packing.js'

// Clients generated from the contract as the package ships it (node_modules/animals-mock/contracts/
// openapi.yaml), each in a fresh app on Node 24: generated without a warning, with no placeholder in
// a base URL, no exported name that shadows a global, and no word about the fake; type-checked; then
// the app's scenarios over createHandlers and over `animals-mock serve -- vitest run`.
let tarball: string
let node24: string

beforeAll(() => {
  tarball = packInto(mkdtempSync(join(tmpdir(), 'animals-pack-')))
  node24 = installNode24()
})

/** Every .ts file under `dir`, with its text. */
function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }))
}

/** The globals of a page, as the app's TypeScript declares them (`declare var Error: ErrorConstructor`, ...). */
function globalNames(app: string): Set<string> {
  const lib = join(app, 'node_modules/typescript/lib')
  const names = new Set<string>()
  for (const file of readdirSync(lib).filter((name) => /^lib\.(es\w*|dom)(\.[\w.]+)?\.d\.ts$/.test(name))) {
    for (const match of readFileSync(join(lib, file), 'utf8').matchAll(/^declare (?:var|function|class) (\w+)/gm)) names.add(match[1] ?? '')
  }
  return names
}

/** What is wrong with generated code: the checks of issue 40, one line each. */
function generatedProblems(files: readonly { file: string; text: string }[], globals: ReadonlySet<string>): string[] {
  const problems: string[] = []
  for (const { file, text } of files) {
    for (const placeholder of text.matchAll(/\{(base_url|staging_url)\}/g)) problems.push(`${file}: placeholder ${placeholder[0]}`)
    for (const exported of text.matchAll(/^export (?:declare )?(?:type|interface|const|let|function|class|enum) (\w+)/gm)) {
      if (globals.has(exported[1] ?? '')) problems.push(`${file}: exports ${exported[1]}, which shadows the global`)
    }
    for (const mention of text.matchAll(/^.*\b(fake|animals-mock|pacts?)\b.*$/gim)) problems.push(`${file}: mentions "${mention[1]}": ${mention[0].trim()}`)
  }
  return problems
}

type Generator = { readonly app: string; readonly generated: string; readonly baseUrl: RegExp }

const GENERATORS: readonly Generator[] = [
  { app: 'client-openapi-fetch', generated: 'src/generated', baseUrl: /^/ },
  // hey-api writes the contract's server into its client and its ClientOptions type.
  { app: 'client-hey-api', generated: 'src/generated', baseUrl: /createConfig<ClientOptions\d*>\(\{ baseUrl: '\/v1' \}\)/ },
  // orval writes the server into every path when asked to (getBaseUrlFromSpecification).
  { app: 'client-orval', generated: 'src/generated', baseUrl: /return `\/v1\/pets`/ },
]

describe.each(GENERATORS)('$app', ({ app, generated, baseUrl }) => {
  let appDir: string

  it('generates from the shipped contract with no warning, placeholder, shadowed global or word about the fake', async () => {
    appDir = installApp(app, tarball)
    const generation = await run(node24, [NPM, 'run', 'generate', '--silent'], appDir)
    expect(generation.code, generation.stdout + generation.stderr).toBe(0)
    expect(`${generation.stdout}\n${generation.stderr}`).not.toMatch(/warn/i)
    const files = sources(join(appDir, generated))
    expect(files.length).toBeGreaterThan(0)
    expect(generatedProblems(files, globalNames(appDir))).toEqual([])
    expect(files.map(({ text }) => text).join('\n')).toMatch(baseUrl)
  })

  it('type-checks the app with its generated client', async () => {
    const typecheck = await run(node24, [NPM, 'run', 'typecheck', '--silent'], appDir)
    expect(typecheck.code, typecheck.stdout + typecheck.stderr).toBe(0)
  })

  it('lists, creates then gets, and meets 400, 401, 404 and a 503 through Prefer, over createHandlers and over serve', async () => {
    const tests = await run(node24, [NPM, 'test', '--silent'], appDir)
    expect(tests.code, tests.stdout + tests.stderr).toBe(0)
    expect(tests.stdout).toMatch(/Tests +\d+ passed/)
    const counted = /Tests +(\d+) passed/.exec(tests.stdout)?.[1]
    expect(Number(counted)).toBeGreaterThanOrEqual(12)
    rmSync(join(appDir, '..'), { recursive: true, force: true })
  })
})

it('keeps src/spec/openapi.generated.ts what openapi-typescript writes from the contract (npm run contract:types)', () => {
  const fresh = join(mkdtempSync(join(tmpdir(), 'animals-types-')), 'openapi.generated.ts')
  generateContractTypes(fresh)
  expect(readFileSync(fresh, 'utf8'), 'the contract changed: run npm run contract:types').toBe(readFileSync(GENERATED_TYPES, 'utf8'))
})

/**
 * `npm run contract:types`: writes src/spec/openapi.generated.ts from contracts/openapi.yaml with
 * openapi-typescript, installed in this folder from its own lock (it needs TypeScript 5's compiler
 * API; the project compiles with TypeScript 7). test:consumers regenerates it and fails when the
 * committed file is not what the contract gives.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const ROOT = join(HERE, '../..')
/** The committed output: the contract's types, which src/spec derives the spec's shapes from. */
export const GENERATED_TYPES = join(ROOT, 'src/spec/openapi.generated.ts')

/** Runs openapi-typescript on the contract, writing `outFile`; installs it here first if needed. */
export function generateContractTypes(outFile: string = GENERATED_TYPES): void {
  const bin = join(HERE, 'node_modules/openapi-typescript/bin/cli.js')
  if (!existsSync(bin)) execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: HERE, stdio: 'inherit' })
  execFileSync(process.execPath, [bin, join(ROOT, 'contracts/openapi.yaml'), '--output', outFile], { stdio: ['ignore', 'ignore', 'inherit'] })
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) generateContractTypes()

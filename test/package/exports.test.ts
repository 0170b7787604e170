import { execFileSync } from 'node:child_process'
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
  expect(exportsOf('animals-mock/msw')).toEqual(['BaseUrlError', 'DEFAULT_PETS', 'ERROR_STATUS', 'PET_STATUSES', 'bypassUnhandledRequests', 'createFake', 'createHandlers', 'failOnUnhandledRequests'])
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

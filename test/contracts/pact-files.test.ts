import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { normalisePact, PACT_DIR, PACT_FILE_NAME, PACT_PARTIES, pactFilePath } from '../../src/contracts/pact-files.js'

it('finds the committed pact between animals-frontend and animals-service in contracts/pacts', () => {
  expect(PACT_PARTIES).toEqual({ consumer: 'animals-frontend', provider: 'animals-service' })
  expect(PACT_FILE_NAME).toBe('animals-frontend-animals-service.json')
  expect(pactFilePath()).toBe(fileURLToPath(new URL('../../contracts/pacts/animals-frontend-animals-service.json', import.meta.url)))
  expect(pactFilePath()).toBe(join(PACT_DIR, PACT_FILE_NAME))
  expect(pactFilePath('/tmp/x')).toBe('/tmp/x/animals-frontend-animals-service.json')
})

it('normalises a pact by dropping the library versions from its metadata, keeping the rest', () => {
  const pact = { consumer: { name: 'web' }, interactions: [], metadata: { pactSpecification: { version: '4.0' }, 'pact-js': { version: '16.0.0' }, pactRust: { ffi: '0.4' } } }
  expect(normalisePact(pact)).toEqual({ consumer: { name: 'web' }, interactions: [], metadata: { pactSpecification: { version: '4.0' } } })
  expect(normalisePact({ ...pact, metadata: { 'pact-js': { version: '15.0.0' } } })).toEqual(normalisePact({ ...pact, metadata: { pactRust: { ffi: '0.5' } } }))
})

it('leaves what has no metadata object as it is', () => {
  for (const value of [null, 'text', 3, { consumer: {} }, { metadata: null }, { metadata: 'v4' }]) {
    expect(normalisePact(value)).toEqual(value)
  }
})

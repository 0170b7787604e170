import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { deprecationWarnings } from '../../src/verify/deprecation-warnings.js'
import { readLocalPacts } from '../../src/verify/pact-documents.js'

const dir = mkdtempSync(join(tmpdir(), 'pact-documents-order-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const pactOf = (consumer: string) =>
  JSON.stringify({
    consumer: { name: consumer },
    provider: { name: 'animals-service' },
    interactions: [{ description: `${consumer} gets an animal`, request: { method: 'GET', path: '/pets/1' }, response: { status: 200 } }],
  })

// Directories list their files in an order of their own (libuv sorts by UTF-8 bytes, where
// U+FF21 comes before U+1F600; other systems differ even for ASCII). The pacts, and so the
// deprecation warnings verify prints, come in JavaScript's string order, by UTF-16 code units,
// where U+1F600 (a surrogate pair, 0xD83D...) comes first.
it("reads a directory's pacts in JavaScript's name order, whatever order the directory lists them in, and warns in that order", async () => {
  writeFileSync(join(dir, '\u{FF21}.json'), pactOf('fullwidth-a'))
  writeFileSync(join(dir, '\u{1F600}.json'), pactOf('grinning-face'))
  const pacts = await readLocalPacts([dir])
  expect(pacts.map((pact) => (pact as { consumer: { name: string } }).consumer.name)).toEqual(['grinning-face', 'fullwidth-a'])
  expect(pacts.flatMap(deprecationWarnings).map((warning) => warning.consumer)).toEqual(['grinning-face', 'fullwidth-a'])
})

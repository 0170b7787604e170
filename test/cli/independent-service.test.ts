import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { type Drift, type IndependentOptions, startIndependentService } from '../support/independent-service/service.js'

const KEY = 'independent-key-3d9a'
const run = (command: 'verify' | 'parity', baseUrl: string) =>
  runCli([command, '--base-url', baseUrl, '--timeout', '3000'], { ANIMALS_MOCK_VERIFY_KEY: KEY })
// 120 animals, so that a list of more than 100 can show.
const SEEDED = 120

async function against<T>(options: Partial<IndependentOptions>, use: (baseUrl: string) => Promise<T>): Promise<T> {
  const service = await startIndependentService({ keys: [KEY], seeded: SEEDED, ...options })
  try {
    return await use(service.baseUrl)
  } finally {
    await service.close()
  }
}

it('is written from the spec alone: nothing under test/support/independent-service imports from src/', () => {
  const dir = fileURLToPath(new URL('../support/independent-service/', import.meta.url))
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), 'utf8')
    const imports = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1] ?? '')
    expect(imports.filter((name) => !name.startsWith('node:') && !name.startsWith('./')), file).toEqual([])
  }
})

describe.concurrent('a correct service that chooses otherwise wherever the spec is open', () => {
  for (const deprecation of ['true', 'none'] as const) {
    it(`passes verify and parity (Deprecation: ${deprecation}, no Location, no Link, newest first, its own codes)`, async ({ expect }) => {
      await against({ deprecation }, async (baseUrl) => {
        const verified = await run('verify', baseUrl)
        expect(verified.code, verified.stdout + verified.stderr).toBe(0)
        const compared = await run('parity', baseUrl)
        expect(compared.code, compared.stdout + compared.stderr).toBe(0)
        expect(compared.stdout).not.toContain('CONTRADICTS')
        // It does differ from the fake, where the spec leaves room.
        expect(compared.stdout).toMatch(/^open +get-id-not-integer +status +400 +404$/m)
        expect(compared.stdout).toMatch(/^open +create-with-status +header Location +a path to …\/pets\/<id> +absent$/m)
      })
    })
  }
})

/** Each drift, the command that must catch it, and the line of its report that names the rule. */
const DRIFTS: readonly { readonly drift: Drift; readonly by: 'verify' | 'parity'; readonly names: RegExp; readonly seeded?: number }[] = [
  { drift: 'empty token accepted', by: 'parity', names: /^CONTRADICTS +list-empty-token +status +401 +200$/m },
  { drift: 'body checked before the key', by: 'parity', names: /^CONTRADICTS +create-no-key-bad-body +status +401 +400$/m },
  { drift: 'refused request still stored', by: 'parity', names: /^CONTRADICTS +refused-create-stores-nothing +stored animals +none of the refused animals stored +stored: sent with no key/m },
  { drift: 'categoryId "5" accepted', by: 'parity', names: /^CONTRADICTS +create-categoryId-numeric-text +status +400 +201$/m },
  { drift: 'categoryId null accepted', by: 'parity', names: /^CONTRADICTS +create-categoryId-null +status +400 +201$/m },
  { drift: 'categoryId true accepted', by: 'parity', names: /^CONTRADICTS +create-categoryId-true +status +400 +201$/m },
  { drift: 'categoryId 1.5 accepted', by: 'parity', names: /^CONTRADICTS +create-categoryId-fraction +status +400 +201$/m },
  { drift: 'limit=0 answered with no animals', by: 'parity', names: /^CONTRADICTS +list-limit-0 +count +not a list +0 animals$/m },
  { drift: 'limit=101 answered with 101 animals', by: 'parity', names: /^CONTRADICTS +list-limit-101 +count +not a list +101 animals$/m },
  { drift: 'limit=abc answered with the default', by: 'parity', names: /^CONTRADICTS +list-limit-abc +count +not a list +20 animals$/m },
  { drift: 'limit=1.5 answered with the default', by: 'parity', names: /^CONTRADICTS +list-limit-1\.5 +count +not a list +20 animals$/m },
  { drift: 'status=bogus answered 200', by: 'parity', names: /^CONTRADICTS +list-status-bogus +status +400 +200$/m },
  { drift: 'status=toString answered 200', by: 'parity', names: /^CONTRADICTS +list-status-toString +status +400 +200$/m },
  { drift: 'new ids reuse seeded ids', by: 'parity', names: /^CONTRADICTS +ids-unique-after-existing +ids .*already taken$/m },
  // Parity's own set-up creates 16 animals first, past the 5 seeded ids: only a look taken before it sees them reused.
  { drift: 'new ids reuse seeded ids', seeded: 5, by: 'parity', names: /^CONTRADICTS +ids-unique-after-existing +ids .* 5 of [0-9]+ new ids already taken$/m },
  // verify's provider states create animals too: a counter from 1 under 3 seeded animals gives the first of them a seeded id.
  { drift: 'new ids reuse seeded ids', seeded: 3, by: 'verify', names: /^ERROR the provider states' creations: [0-9]+ of [0-9]+ new animals got ids that animals listed before the first creation already had: [0-9]+ \(listed as "Seeded [0-9]+"\)/m },
  { drift: 'parallel creations share an id', by: 'parity', names: /^CONTRADICTS +ids-unique-in-parallel +ids +20 created, 20 distinct ids +20 created, [0-9]{1,2} distinct ids$/m },
  { drift: 'a 2 MiB body stops the service', by: 'parity', names: /^CONTRADICTS +survives-large-body +availability /m },
  { drift: 'the key is not checked', by: 'verify', names: /^FAIL  a request to list animals without a key$/m },
  { drift: 'createPet answers 200', by: 'verify', names: /^FAIL  a request to add an animal with a status$/m },
  { drift: 'default limit is 10', by: 'verify', names: /^FAIL  a request to list animals with the default limit/m },
  { drift: 'the status filter is ignored', by: 'verify', names: /^FAIL  a request to list sold animals/m },
  { drift: 'an unknown id is found', by: 'verify', names: /^FAIL  a request to get an animal that does not exist/m },
  { drift: 'Error status differs from HTTP status', by: 'verify', names: /^FAIL  a request to get an animal without a key/m },
  { drift: 'ids are strings', by: 'verify', names: /^FAIL  a request to get an animal \[/m },
  { drift: 'the created animal loses its status', by: 'verify', names: /^FAIL  a request to add an animal with a status$/m },
  { drift: 'Sunset of 1 December 2030', by: 'parity', names: /^CONTRADICTS +get-existing +header Sunset +Thu, 05 Dec 2030 00:00:00 GMT +Sun, 01 Dec 2030 00:00:00 GMT$/m },
]

describe.concurrent('services that break one rule each', () => {
  for (const { drift, by, names, seeded = SEEDED } of DRIFTS) {
    it(`${by} exits 1 and names the rule when ${drift} (${seeded} seeded animals)`, async ({ expect }) => {
      await against({ drift, deprecation: 'true', seeded }, async (baseUrl) => {
        const result = await run(by, baseUrl)
        expect(result.code, result.stdout + result.stderr).toBe(1)
        expect(result.stdout).toMatch(names)
        if (by === 'parity') expect(result.stdout).toMatch(/; spec [0-9.]+: "/)
      })
    })
  }
})

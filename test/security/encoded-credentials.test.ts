import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis } from '../../src/redis/connection.js'
import { type CliProcess, startServing, stopCli } from '../support/cli.js'
import { type IndependentService, startIndependentService } from '../support/independent-service/service.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'

// A key a request repeats in another spelling than it sent it: percent-encoded (either case) in
// the path and the query, JSON-escaped in a body (a key holds no space; `+` for a space is
// `test/service/credentials.test.ts`'s). No output holds it in any spelling: the journal, the
// request log, the recorded pact, the proxy's outputs, and (with --store) whatever Redis keeps.
const KEY = 'tilde~key~0123/456+789'
const SECRET = 'f'.repeat(16) + '0123456789abcdef'

/** The key in any spelling: each `~`, `/` or `+` as written, percent-encoded, or JSON-escaped (once or twice). */
const SPELLINGS: Record<string, string> = { '~': '(?:~|%7e|\\\\+u007e)', '/': '(?:/|%2f|\\\\+/|\\\\+u002f)', '+': '(?:\\+|%2b|\\\\+u002b)' }
const ANY_SPELLING = new RegExp(
  KEY.split('')
    .map((char) => SPELLINGS[char] ?? char)
    .join(''),
  'i',
)

/** The requests, each refused (400 or 404): an animal named with the key would be the app's own data, which the fake serves back as given. */
async function repeatEncoded(base: string): Promise<void> {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
  const lower = encodeURIComponent(KEY).replaceAll('~', '%7e').toLowerCase()
  const upper = encodeURIComponent(KEY).replaceAll('~', '%7E')
  await fetch(`${base}/pets/${lower}`, { headers })
  await fetch(`${base}/pets/${upper}`, { headers })
  await fetch(`${base}/pets?limit=1&ref=${upper}&q=${KEY.replaceAll('~', '%7e').replace('/', '%2f')}`, { headers })
  await fetch(`${base}/pets`, { method: 'POST', headers, body: `{"name":"Rex ${KEY.replaceAll('~', '\\u007e').replace('/', '\\/').replace('+', '\\u002B')}"}` })
}

describe('a key repeated percent-encoded, with + for a space, or JSON-escaped', () => {
  const running: CliProcess[] = []
  afterAll(() => {
    for (const cli of running) cli.child.kill('SIGKILL')
  })

  it.each(['text', 'json'] as const)('reaches neither the journal, the request log (%s) nor the recorded pact of serve', async (format) => {
    const dir = mkdtempSync(join(tmpdir(), 'encoded-pact-'))
    const { cli, base, origin } = await startServing(['serve', '--port', '0', '--api-key', KEY, '--log-format', format, '--record-pact', dir, '--consumer', 'encoded-app'], running)
    await repeatEncoded(base)
    const journal = await (await fetch(`${origin}/__control/journal`, { headers: { authorization: `Bearer ${KEY}` } })).text()
    const entries = (JSON.parse(journal) as { entries: { path: string; query: string; body?: string }[] }).entries
    // The requests are there, each spelling of the key marked in its place.
    expect(entries.map((entry) => entry.path)).toEqual(['/v1/pets/[redacted]', '/v1/pets/[redacted]', '/v1/pets', '/v1/pets'])
    expect(entries[2]?.query).toBe('limit=1&ref=[redacted]&q=[redacted]')
    expect(entries[3]?.body).toBe('{"name":"Rex [redacted]"}')
    expect(await stopCli(cli)).toBe(0)
    const pacts = readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8')).join('\n')
    expect(pacts).toContain('"interactions"')
    for (const [where, text] of Object.entries({ journal, pacts, stdout: cli.stdout(), stderr: cli.stderr() })) expect(text, where).not.toMatch(ANY_SPELLING)
    expect(cli.stdout()).toMatch(format === 'json' ? /"path":"\/v1\/pets\/\[redacted\]"/ : /GET \/v1\/pets\/\[redacted\] 400/)
  })

  it('is scrubbed from a journal of 15 KB keys of 1,500 words (their pattern once overflowed V8 and failed the read with a 500)', async () => {
    const { cli, origin, base } = await startServing(['serve', '--port', '0'], running)
    const keys = [1, 2, 3].map((request) => Array.from({ length: 1500 }, (_, word) => (request * 7919 + word * 104_729).toString(36)).join(' ').slice(0, 15_000))
    const headers = (key: string) => ({ authorization: 'Bearer journal-team', 'x-api-key': key, 'content-type': 'application/json' })
    for (const key of keys) await (await fetch(`${base}/pets`, { method: 'POST', headers: headers(key), body: JSON.stringify({ name: 'Rex', tags: [{ name: key }] }) })).arrayBuffer()
    const read = await fetch(`${origin}/__control/journal`, { headers: { authorization: 'Bearer journal-team' } })
    const journal = await read.text()
    expect(read.status).toBe(200)
    const entries = (JSON.parse(journal) as { entries: { path: string; body: string }[] }).entries
    // Each body held the key past the 4,096 characters kept: the part kept goes with it.
    expect(entries.map((entry) => [entry.path, entry.body])).toEqual(keys.map(() => ['/v1/pets', '']))
    for (const key of keys) expect(journal).not.toContain(key.slice(0, 40))
    expect(await stopCli(cli)).toBe(0)
  })

  it('reaches none of the proxy\'s outputs: log lines, journal, violations, reports, recording', async () => {
    const service: IndependentService = await startIndependentService({ keys: [KEY], seeded: 3 })
    try {
      const dir = mkdtempSync(join(tmpdir(), 'encoded-proxy-'))
      const reports = ['proxy.json', 'proxy.xml'].map((name) => join(dir, name))
      const { cli, base, origin } = await startServing(['proxy', '--target', service.baseUrl, '--port', '0', ...reports.flatMap((file) => ['--report', file]), '--record', join(dir, 'recorded.json')], running)
      await repeatEncoded(base)
      const journal = await (await fetch(`${origin}/__proxy/journal`)).text()
      const violations = await (await fetch(`${origin}/__proxy/violations`)).text()
      expect(await stopCli(cli)).toBe(0)
      expect(JSON.parse(journal)).toMatchObject({ entries: [{ path: '/v1/pets/[redacted]' }, {}, {}, {}] })
      const files = Object.fromEntries(readdirSync(dir).map((file) => [file, readFileSync(join(dir, file), 'utf8')]))
      expect(Object.keys(files).sort()).toEqual(['proxy.json', 'proxy.xml', 'recorded.json'])
      for (const [where, text] of Object.entries({ journal, violations, stdout: cli.stdout(), stderr: cli.stderr(), ...files })) expect(text, where).not.toMatch(ANY_SPELLING)
    } finally {
      await service.close()
    }
  })

  describe.skipIf(!hasRedis)('serve --isolate --store', () => {
    let redis: RedisServer
    beforeAll(async () => {
      redis = await startRedis()
    })
    afterAll(async () => {
      await redis?.remove()
    })

    it('keeps it out of Redis, the journal and the request log', async () => {
      const { cli, base, origin } = await startServing(['serve', '--isolate', '--store', redis.url, '--port', '0', '--api-key', KEY], running, {}, { ANIMALS_MOCK_STORE_SECRET: SECRET })
      await repeatEncoded(base)
      const journal = await (await fetch(`${origin}/__control/journal`, { headers: { authorization: `Bearer ${KEY}` } })).text()
      expect(JSON.parse(journal)).toMatchObject({ total: 4 })
      expect(await stopCli(cli)).toBe(0)
      const connection = await connectRedis({ url: redis.url, timeoutMs: 2000 })
      const held: string[] = []
      for (const key of (await connection.command(['KEYS', '*'])) as string[]) {
        const type = (await connection.command(['TYPE', key])) as string
        const read = { string: ['GET', key], list: ['LRANGE', key, '0', '-1'], hash: ['HGETALL', key], zset: ['ZRANGE', key, '0', '-1'], set: ['SMEMBERS', key] }[type] ?? ['TYPE', key]
        held.push(key, JSON.stringify(await connection.command(read)))
      }
      await connection.close()
      expect(held.join('\n')).toContain('[redacted]')
      for (const [where, text] of Object.entries({ redis: held.join('\n'), journal, stdout: cli.stdout(), stderr: cli.stderr() })) expect(text, where).not.toMatch(ANY_SPELLING)
    })
  })
})

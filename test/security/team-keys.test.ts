import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliProcess, startServing } from '../support/cli.js'
import { shippedPets } from '../support/fixtures.js'
import { hasRedis, type RedisServer, startRedis } from '../support/redis-server.js'

// `serve --isolate` with a key per team, as docs/deploy.md runs it for a shared QA machine: a
// team's key sees and changes its own store alone. Naming another store, listing the stores and the
// controls over every store are the operator's, who sends --control-token's token; without one
// configured, nobody's key reaches them. In memory and over Redis alike.
const TEAM_A = 'team-a-key-0001'
const TEAM_B = 'team-b-key-0002'
const TOKEN = 'operator-token-0003'
const SECRET = 'f'.repeat(16) + '0123456789abcdef'
const FIXTURE = shippedPets('default').length

type Ask = { readonly key?: string; readonly token?: string; readonly method?: string; readonly body?: unknown }

describe.each([
  ['in memory', false],
  ['over Redis', true],
] as const)('serve --isolate with team keys, %s', (_name, overRedis) => {
  const running: CliProcess[] = []
  let redis: RedisServer | undefined
  let databases = 0
  beforeAll(async () => {
    if (overRedis && hasRedis) redis = await startRedis()
  })
  afterAll(async () => {
    for (const cli of running) cli.child.kill('SIGKILL')
    await redis?.remove()
  })

  async function serve(extra: string[]): Promise<(path: string, ask?: Ask) => Promise<{ status: number; body: { code?: string; message?: string } & Record<string, unknown> }>> {
    // Each fake over Redis on a database of its own.
    const store = redis === undefined ? [] : ['--store', `${redis.url}/${++databases}`]
    const { origin } = await startServing(['serve', '--isolate', '--port', '0', '--api-key', TEAM_A, '--api-key', TEAM_B, ...store, ...extra], running, {}, { ANIMALS_MOCK_STORE_SECRET: SECRET })
    return async (path, { key, token, method = 'GET', body } = {}) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (key !== undefined) headers.authorization = `Bearer ${key}`
      if (token !== undefined) headers['x-control-token'] = token
      const response = await fetch(`${origin}/__control${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      const text = await response.text()
      return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as { code?: string }) }
    }
  }

  it.skipIf(overRedis && !hasRedis)('without a control token: a key reaches its own store, and neither lists nor names another', async () => {
    const control = await serve([])
    expect((await control('/seed', { key: TEAM_A, method: 'POST', body: { count: 2 } })).status).toBe(201)
    expect((await control('/', { key: TEAM_B })).body).toMatchObject({ animals: FIXTURE })
    expect((await control('/', { key: TEAM_A })).body).toMatchObject({ animals: FIXTURE + 2 })
    const listed = await control('/stores', { key: TEAM_B })
    expect(listed).toMatchObject({ status: 403, body: { code: 'operator_only' } })
    expect(listed.body.message).toBe('Listing the stores is for the operator: start the fake with --control-token <t> (or ANIMALS_MOCK_CONTROL_TOKEN) and send X-Control-Token: <t>. A key reaches its own store alone.')
    // Whatever the label, named with a key it is refused before it is looked up: nothing tells which labels exist.
    for (const label of ['tenant-1', 'tenant-2', 'no-such-store']) {
      for (const [path, method] of [[`/snapshot?store=${label}`, 'GET'], [`/reset?store=${label}`, 'POST'], [`/forced?store=${label}`, 'POST'], [`/journal?store=${label}`, 'GET']] as const) {
        expect(await control(path, { key: TEAM_B, method, body: method === 'POST' ? { status: 503 } : undefined }), path).toMatchObject({ status: 403, body: { code: 'operator_only' } })
      }
    }
    // No key at all is no way round: the control API needs one, and then it is a team's.
    expect((await control('/reset', { method: 'POST' })).status).toBe(401)
    expect((await control('/stores')).status).toBe(401)
    // Team B's store is untouched, and team A's rule applies to team A alone.
    expect((await control('/forced', { key: TEAM_A, method: 'POST', body: { status: 503 } })).status).toBe(201)
    expect((await control('/', { key: TEAM_A })).body).toMatchObject({ animals: FIXTURE + 2, forcedRules: 1 })
    expect((await control('/', { key: TEAM_B })).body).toMatchObject({ animals: FIXTURE, forcedRules: 0 })
  })

  it.skipIf(overRedis && !hasRedis)('with a control token: the token is the operator\'s, over every store; a key without it still reaches its own store alone', async () => {
    const control = await serve(['--control-token', TOKEN])
    expect((await control('/seed', { key: TEAM_A, method: 'POST', body: { count: 1 } })).status).toBe(201)
    expect((await control('/', { key: TEAM_B })).body).toMatchObject({ animals: FIXTURE })
    const stores = await control('/stores', { token: TOKEN })
    expect(stores.status).toBe(200)
    const labels = (stores.body.stores as { label: string; animals: number }[]).sort((a, b) => a.animals - b.animals)
    expect(labels.map((store) => store.animals)).toEqual([FIXTURE, FIXTURE + 1])
    const teamA = labels[1]?.label ?? ''
    // The operator names any store, or every store at once.
    expect((await control(`/?store=${teamA}`, { token: TOKEN })).body).toMatchObject({ animals: FIXTURE + 1 })
    expect((await control('/reset', { token: TOKEN, method: 'POST' })).status).toBe(200)
    expect((await control('/', { key: TEAM_A })).body).toMatchObject({ animals: FIXTURE })
    // A team's key without the token: its own store, nothing else.
    expect((await control(`/?store=${teamA}`, { key: TEAM_B })).body).toMatchObject({ code: 'operator_only', message: expect.stringContaining('send the control token in X-Control-Token') })
    expect((await control('/stores', { key: TEAM_B })).status).toBe(403)
    expect(await control('/', {})).toMatchObject({ status: 401, body: { message: 'The control API needs the control token in X-Control-Token, or an API key for its own store (Authorization: Bearer <key>).' } })
    expect((await control('/', { key: 'not-a-team-key' })).status).toBe(401)
    expect((await control('/', { key: TEAM_B, token: 'wrong-token' })).body).toMatchObject({ animals: FIXTURE })
    expect((await control(`/?store=${teamA}`, { key: TEAM_B, token: 'wrong-token' })).status).toBe(403)
  })
})

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type CliProcess, startServing } from '../support/cli.js'
import { closedPort } from '../support/deployments.js'
import { shippedPets } from '../support/fixtures.js'

// docs/deploy.md's recipe, run as written: three `serve --isolate` replicas on loopback behind
// Debian's nginx with the doc's nginx.conf (only the ports changed), several teams' traffic at
// once, and a replica stopped in the middle. `.ci/run` installs nginx, as it installs Chromium.
const NGINX = '/usr/sbin/nginx'
const hasNginx = existsSync(NGINX)
if (!hasNginx) console.warn(`replica tests skipped: nginx is absent (${NGINX}); .ci/run installs it (apt-get install nginx)`)

const DOC = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8')
const FIXTURE_SIZE = shippedPets('default').length
const TEAMS = Array.from({ length: 6 }, (_, i) => `team-${i + 1}-key`)
const HOST = 'fake.qa.example'

/** The fenced blocks of one language in docs/deploy.md, in order, exactly as written. */
function blocks(lang: string): string[] {
  return [...DOC.matchAll(new RegExp(`^( *)\`\`\`${lang}\\n([\\s\\S]*?)^\\1\`\`\``, 'gm'))].map((match) => {
    const indent = match[1] ?? ''
    return (match[2] ?? '').split('\n').map((line) => line.slice(indent.length)).join('\n')
  })
}

const [HASHED_CONF = '', LOUD_FRAGMENT = ''] = blocks('nginx')

/** The doc's replicas' command line, with `--port 0` for a free port. */
const REPLICA_ARGS = ((): string[] => {
  const line = blocks('sh')[0]?.split('\n')[0] ?? ''
  const words = line.replace(/^npx animals-mock /, '').replace(/ &$/, '').split(' ')
  return words.map((word, i) => (words[i - 1] === '--port' ? '0' : word))
})()

type Balancer = { readonly url: string; readonly replicas: ServingReplica[]; stopReplica(index: number): Promise<void> }
type ServingReplica = { readonly cli: CliProcess; readonly port: number; readonly origin: string }

const running: CliProcess[] = []
const nginxes: { child: ChildProcess; prefix: string }[] = []
afterEach(async () => {
  for (const { child, prefix } of nginxes.splice(0)) {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
    rmSync(prefix, { recursive: true, force: true })
  }
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

/** The doc's nginx.conf for these replicas and this port. */
function confFor(conf: string, replicas: readonly ServingReplica[], port: number): string {
  let next = 0
  return conf.replace(/server 127\.0\.0\.1:\d+/g, () => `server 127.0.0.1:${replicas[next++]?.port ?? 0}`).replace(/listen 8080;/, `listen 127.0.0.1:${port};`)
}

/** The doc's failover-off variant: its upstream in place of the recipe's, its lines in the server block. */
function loudConf(): string {
  const [upstream = '', serverLines = ''] = LOUD_FRAGMENT.split('# in the server block:\n')
  return HASHED_CONF.replace(/ {2}upstream animals_mock \{[\s\S]*?\n {2}\}\n/, `${upstream.replace(/^/gm, '  ').trimEnd()}\n`).replace(
    /( {4}location \/ \{)/,
    `${serverLines.replace(/^(?=.)/gm, '    ').trimEnd()}\n$1`,
  )
}

/** Plain round robin: the recipe without its hash. */
const roundRobinConf = (): string => HASHED_CONF.replace(/ *hash \$http_authorization consistent;\n/, '')

async function startBalancer(conf: string): Promise<Balancer> {
  const replicas = await Promise.all(
    [0, 1, 2].map(async () => {
      const serving = await startServing(REPLICA_ARGS, running)
      return { cli: serving.cli, port: Number(new URL(serving.origin).port), origin: serving.origin }
    }),
  )
  const port = await closedPort()
  const prefix = mkdtempSync(join(tmpdir(), 'animals-nginx-'))
  writeFileSync(join(prefix, 'nginx.conf'), confFor(conf, replicas, port))
  const child = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log'), '-g', `daemon off; pid ${join(prefix, 'nginx.pid')};`], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text))
  nginxes.push({ child, prefix })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/healthz`).then((response) => response.ok, () => false)
    if (ready) break
    if (child.exitCode !== null || i > 200) throw new Error(`nginx did not start: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return {
    url,
    replicas,
    async stopReplica(index) {
      const replica = replicas[index]
      replica?.cli.child.kill('SIGKILL')
      await replica?.cli.exited
    },
  }
}

/** A team's client through the balancer: its key on every request, API and control alike. */
function team(url: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  return {
    key,
    api: (path: string, init: RequestInit = {}) => fetch(`${url}/v1${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } }),
    control: (path: string, method = 'GET', body?: unknown) =>
      fetch(`${url}/__control${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
  }
}

type Pet = { id: number; name: string; categoryId: number; status?: string }
type Outcome = { readonly requests: number; readonly failures: string[] }

/**
 * What a team does with its store, each answer checked against the spec and the team's own
 * earlier requests: lists, creations, reads, a forced error and the journal through the control
 * API with the team's key, and a reset. Returns how many requests it sent and what failed.
 */
async function teamSuite(url: string, key: string): Promise<Outcome> {
  const client = team(url, key)
  const failures: string[] = []
  let requests = 0
  const check = (ok: boolean, what: string): void => {
    if (!ok) failures.push(`${key}: ${what}`)
  }
  const json = async <T>(response: Promise<Response>): Promise<{ status: number; body: T }> => {
    requests += 1
    const answered = await response
    return { status: answered.status, body: (await answered.json()) as T }
  }
  const start = await json<Pet[]>(client.api('/pets?limit=100'))
  check(start.status === 200 && start.body.length === FIXTURE_SIZE, `starts from the fixture (${start.body.length})`)
  const created: Pet[] = []
  for (let i = 0; i < 8; i++) {
    const status = ['available', 'pending', 'sold'][i % 3]
    const answer = await json<Pet>(client.api('/pets', { method: 'POST', body: JSON.stringify({ name: `${key} pet ${i}`, categoryId: 1 + (i % 8), status }) }))
    check(answer.status === 201, `creation ${i} answered ${answer.status}`)
    created.push(answer.body)
  }
  const ids = created.map((pet) => pet.id)
  check(new Set(ids).size === ids.length && ids.every((id) => id > FIXTURE_SIZE), `ids unique and new (${ids.join(',')})`)
  for (const pet of created) {
    const read = await json<Pet>(client.api(`/pets/${pet.id}`))
    check(read.status === 200 && read.body.name === pet.name, `reads back ${pet.id} (${read.status} ${read.body.name})`)
  }
  const all = await json<Pet[]>(client.api('/pets?limit=100'))
  check(all.body.length === FIXTURE_SIZE + created.length, `lists ${all.body.length} animals`)
  for (const pet of created) check(all.body.some((each) => each.id === pet.id && each.name === pet.name), `lists ${pet.id}`)
  const sold = await json<Pet[]>(client.api('/pets?status=sold&limit=100'))
  for (const pet of created.filter((each) => each.status === 'sold')) check(sold.body.some((each) => each.id === pet.id), `lists ${pet.id} as sold`)
  const rule = await json<{ id: number }>(client.control('/forced', 'POST', { method: 'GET', path: '/pets', status: 503, times: 1 }))
  check(rule.status === 201, `forces a 503 (${rule.status})`)
  const forced = await json<{ status: number }>(client.api('/pets'))
  check(forced.status === 503 && forced.body.status === 503, `gets the forced 503 (${forced.status})`)
  const after = await json<Pet[]>(client.api('/pets'))
  check(after.status === 200, `gets 200 after the forced answer (${after.status})`)
  const journal = await json<{ entries: { tenant: string; path: string }[] }>(client.control('/journal'))
  const tenants = new Set(journal.body.entries.map((entry) => entry.tenant))
  check(journal.status === 200 && tenants.size === 1 && journal.body.entries.length === requests - 2, `journal holds its ${requests - 2} requests alone (${journal.body.entries.length}, ${[...tenants].join(',')})`)
  const reset = await json<unknown>(client.control('/reset', 'POST'))
  check(reset.status === 200, `resets (${reset.status})`)
  const again = await json<Pet[]>(client.api('/pets?limit=100'))
  check(again.body.length === FIXTURE_SIZE, `back to the fixture after its reset (${again.body.length})`)
  return { requests, failures }
}

/** Each team's animal, created through the balancer, and which replica holds the team's store. */
async function placeTeams(balancer: Balancer): Promise<Map<string, { pet: Pet; replica: number }>> {
  const placed = new Map<string, { pet: Pet; replica: number }>()
  for (const key of TEAMS) {
    // The name repeats no key: the journal would show it as [redacted].
    const marker = `marker of ${key.replace(/-key$/, '')}`
    const answer = await team(balancer.url, key).api('/pets', { method: 'POST', body: JSON.stringify({ name: marker, categoryId: 1 }) })
    expect(answer.status).toBe(201)
    const pet = (await answer.json()) as Pet
    // A replica's own journal (every store, no key) holds the request whose body names the team.
    for (const [index, replica] of balancer.replicas.entries()) {
      const entries = ((await (await fetch(`${replica.origin}/__control/journal?method=POST`)).json()) as { entries: { body?: string }[] }).entries
      if (entries.some((entry) => entry.body?.includes(`"${marker}"`))) placed.set(key, { pet, replica: index })
    }
  }
  expect([...placed.keys()].sort()).toEqual([...TEAMS].sort())
  return placed
}

/** The replica holding the most teams, and those teams. */
function busiest(placed: Map<string, { replica: number }>): { index: number; teams: string[] } {
  const byReplica = [0, 1, 2].map((index) => [...placed].filter(([, where]) => where.replica === index).map(([key]) => key))
  const index = byReplica.reduce((best, teams, i) => (teams.length > (byReplica[best]?.length ?? 0) ? i : best), 0)
  return { index, teams: byReplica[index] ?? [] }
}

/** A raw request, so that `Host` is ours to set (fetch sets its own). */
function withHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${url}/v1/pets?limit=1`, { headers: { host, authorization: 'Bearer host-check' } }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    sent.on('error', reject)
    sent.end()
  })
}

describe.skipIf(!hasNginx)('replicas of serve --isolate behind nginx, as docs/deploy.md says', () => {
  it('keeps six teams at once consistent with the key hashed, where plain round robin fails them', async () => {
    const hashed = await startBalancer(HASHED_CONF)
    const outcomes = await Promise.all(TEAMS.map((key) => teamSuite(hashed.url, key)))
    const requests = outcomes.reduce((total, each) => total + each.requests, 0)
    expect(outcomes.flatMap((each) => each.failures)).toEqual([])
    // The teams are spread over the replicas, not all on one.
    const placed = await placeTeams(hashed)
    expect(new Set([...placed.values()].map((where) => where.replica)).size).toBeGreaterThan(1)

    const roundRobin = await startBalancer(roundRobinConf())
    const robbed = await Promise.all(TEAMS.map((key) => teamSuite(roundRobin.url, key)))
    const failing = robbed.filter((each) => each.failures.length > 0).length
    expect(failing).toBe(TEAMS.length)
    console.info(
      `replicas: ${TEAMS.length} teams × ${requests / TEAMS.length} requests at once; key hashed: 0 failed checks; ` +
        `round robin: ${robbed.reduce((total, each) => total + each.failures.length, 0)} failed checks, ${failing} of ${TEAMS.length} teams failing`,
    )
  })

  it('answers a burst of 200 parallel creations, a 5 MiB body with the fake\'s own 413, and Host as the replicas allow it', async () => {
    const hashed = await startBalancer(HASHED_CONF)
    const creations = await Promise.all(
      Array.from({ length: 200 }, (_, i) => team(hashed.url, TEAMS[i % TEAMS.length] ?? '').api('/pets', { method: 'POST', body: JSON.stringify({ name: `burst ${i}`, categoryId: 1 }) })),
    )
    expect(creations.map((response) => response.status).filter((status) => status !== 201)).toEqual([])
    const byTeam = new Map<string, number[]>()
    for (const [i, response] of creations.entries()) {
      const key = TEAMS[i % TEAMS.length] ?? ''
      byTeam.set(key, [...(byTeam.get(key) ?? []), ((await response.json()) as Pet).id])
    }
    for (const ids of byTeam.values()) expect(new Set(ids).size).toBe(ids.length)

    const large = await team(hashed.url, 'body-key').api('/pets', { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024), categoryId: 1 }) })
    expect(large.status).toBe(413)
    expect(large.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await large.json()).toMatchObject({ status: 413 })

    expect(await withHost(hashed.url, HOST)).toBe(200)
    expect(await withHost(hashed.url, 'evil.example')).toBe(403)
  })

  it('moves a stopped replica\'s teams to fresh stores on the next replica, the other teams untouched', async () => {
    const hashed = await startBalancer(HASHED_CONF)
    const placed = await placeTeams(hashed)
    const lost = busiest(placed)
    expect(lost.teams.length).toBeGreaterThan(0)
    await hashed.stopReplica(lost.index)
    for (const [key, { pet }] of placed) {
      const client = team(hashed.url, key)
      const read = await client.api(`/pets/${pet.id}`)
      const listed = (await (await client.api('/pets?limit=100')).json()) as Pet[]
      if (lost.teams.includes(key)) {
        // A fresh store from the fixture: the team's animal is gone, and its requests still work.
        expect(read.status).toBe(404)
        expect(listed).toHaveLength(FIXTURE_SIZE)
      } else {
        expect(read.status).toBe(200)
        expect(((await read.json()) as Pet).name).toBe(`marker of ${key.replace(/-key$/, '')}`)
        expect(listed).toHaveLength(FIXTURE_SIZE + 1)
      }
    }
  })

  it('with failover off, gives a stopped replica\'s teams a 502 with the Error body, the other teams untouched', async () => {
    const loud = await startBalancer(loudConf())
    const placed = await placeTeams(loud)
    const lost = busiest(placed)
    await loud.stopReplica(lost.index)
    for (const [key, { pet }] of placed) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const read = await team(loud.url, key).api(`/pets/${pet.id}`)
        if (lost.teams.includes(key)) {
          expect(read.status).toBe(502)
          expect(read.headers.get('content-type')).toBe('application/json')
          expect(await read.json()).toEqual({ code: 'replica_unavailable', message: 'The replica that holds the animals of this key is not answering.', status: 502 })
        } else {
          expect(read.status).toBe(200)
          await read.body?.cancel()
        }
      }
    }
    // The fake's own 503 passes through as the fake sent it: only nginx's own errors are replaced.
    const [kept = ''] = TEAMS.filter((key) => !lost.teams.includes(key))
    await team(loud.url, kept).control('/forced', 'POST', { method: 'GET', path: '/pets', status: 503, code: 'down_for_test', times: 1 })
    const forced = await team(loud.url, kept).api('/pets')
    expect(forced.status).toBe(503)
    expect(await forced.json()).toMatchObject({ code: 'down_for_test', status: 503 })
  })
})

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { isCliError } from '../../src/cli/cli-error.js'
import { PROXY_HELP, proxy } from '../../src/cli/proxy.js'

// `proxy` in this process, in front of targets served here: its options, its banner, what it
// forwards, and what it writes at shutdown. test/proxy/proxy.test.ts runs it as a process.

afterEach(() => {
  vi.restoreAllMocks()
})

const KEY = 'proxy-in-process-key-1'
const text = (chunk: unknown): string => (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'))

type Outcome = { readonly code: number | undefined; readonly refused: string | undefined; readonly stdout: string; readonly stderr: string; readonly url: string }

/** `promise`, or a failure of the test once `ms` have passed without it settling. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** Runs `proxy`; once its first line (the banner) is out, `meanwhile` gets the base URL, then SIGTERM stops it. */
async function run(args: readonly string[], meanwhile: (url: string) => Promise<void> = async () => {}): Promise<Outcome> {
  const stdout: string[] = []
  const stderr: string[] = []
  let printed: (first: string) => void = () => {}
  const banner = new Promise<string>((resolve) => (printed = resolve))
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout.push(text(chunk))
    printed(text(chunk))
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(text(chunk)), true))
  const ran = proxy(args, {})
  let settled = false
  ran.then(
    () => (settled = true),
    () => (settled = true),
  )
  try {
    const first = await within(Promise.race([banner, ran.then(() => undefined)]), 10_000, 'no banner')
    // Help is printed, and the command ends, without listening.
    await new Promise((resolve) => setImmediate(resolve))
    if (first === undefined || settled) return { code: await ran, refused: undefined, stdout: stdout.join(''), stderr: stderr.join(''), url: '' }
    const url = /listening on (\S+)\n|"event":"listening","url":"([^"]+)"/.exec(first)
    let code: number
    try {
      await meanwhile(url?.[1] ?? url?.[2] ?? '')
    } finally {
      process.emit('SIGTERM', 'SIGTERM')
      code = await within(ran, 10_000, 'not stopped by SIGTERM')
    }
    return { code, refused: undefined, stdout: stdout.join(''), stderr: stderr.join(''), url: url?.[1] ?? url?.[2] ?? '' }
  } catch (error) {
    if (!isCliError(error)) throw error
    expect(error.exitCode).toBe(2)
    return { code: undefined, refused: error.message, stdout: stdout.join(''), stderr: stderr.join(''), url: '' }
  } finally {
    vi.restoreAllMocks()
  }
}

async function refusalOf(args: readonly string[]): Promise<string> {
  const outcome = await run(args)
  expect(outcome.stdout).toBe('')
  if (outcome.refused === undefined) throw new Error(`not refused: ${JSON.stringify(args)}`)
  return outcome.refused
}

type Seen = { readonly method: string; readonly url: string; readonly headers: IncomingMessage['headers']; readonly body: string }

/** A target that records what reaches it and answers as `answer` says. */
async function target(answer: (seen: Seen, res: ServerResponse) => void): Promise<{ base: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const each = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      seen.push(each)
      answer(each, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

const PET = { id: 7, name: 'Rex', categoryId: 1, status: 'available' }
const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}
// Answers as the spec says for GET /pets/7; an Error body whose status is wrong for anything else.
const faithful = (seen: Seen, res: ServerResponse): void => {
  if (seen.method === 'GET' && seen.url.startsWith('/v1/pets/7')) json(res, 200, PET)
  else json(res, 404, { code: 'not_found', message: 'No such animal.', status: 400 })
}

it('shows its help with --help or -h, exit code 0', async () => {
  for (const flag of ['--help', '-h']) {
    expect(await run([flag, '--port', 'x'])).toEqual({ code: 0, refused: undefined, stdout: PROXY_HELP, stderr: '', url: '' })
  }
  for (const option of ['--target <url>', '--port <n>', '--host <address>', '--timeout <ms>', '--report <file>', '--fail-on-violation', '--record <file>', '--allowed-host <name>', '--log-format <f>', '--quiet', '-h, --help']) {
    expect(PROXY_HELP, option).toContain(option)
  }
})

it('refuses bad options in one line', async () => {
  expect(await refusalOf([])).toBe('--target is required, e.g. --target https://staging.example/v1')
  expect(await refusalOf(['--target', 'staging.example/v1'])).toBe('--target must be an http or https URL such as https://staging.example/v1')
  expect(await refusalOf(['--target', 'http://t.example/v1', '--timeout', '0'])).toBe('--timeout must be milliseconds from 1 to 600000, not "0"')
  for (const port of ['65536', '123456', '', '-1', 'x', '1e3', ' 80']) {
    expect(await refusalOf(['--target', 'http://t.example/v1', `--port=${port}`]), port).toBe(`--port must be a number from 0 to 65535, not "${port}"`)
  }
  for (const format of ['xml', 'JSON', '']) {
    expect(await refusalOf(['--target', 'http://t.example/v1', '--port', '65535', `--log-format=${format}`]), format).toBe(`--log-format must be text or json, not "${format}"`)
  }
  expect(await refusalOf(['--taget', 'x'])).toBe('unknown option --taget; did you mean --target? (animals-mock proxy --help lists every option)')
})

it('prints its banner and, on SIGTERM, what it saw; exit code 0 without --fail-on-violation', async () => {
  const upstream = await target(faithful)
  try {
    const outcome = await run(['--target', `${upstream.base}/`, '--port', '0', '--quiet'], async (url) => {
      expect((await fetch(`${url}/pets/7`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200)
      expect((await fetch(`${url}/pets/8`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(404)
    })
    const origin = outcome.url.replace(/\/v1$/, '')
    expect(outcome.code).toBe(0)
    expect(outcome.stdout.split('\n')).toEqual([
      `animals-mock listening on ${origin}/v1`,
      `  proxy to: ${upstream.base} (every answer judged by the spec's rules)`,
      `  dashboard: ${origin}/dashboard`,
      `  violations: ${origin}/__proxy/violations`,
      expect.stringMatching(/^VIOLATION GET \/v1\/pets\/8 404 body: /),
      'animals-mock stopped: 2 exchanges, 1 violations of the spec',
      '',
    ])
    expect(outcome.stderr).toBe('')
  } finally {
    await upstream.close()
  }
})

it('exits 1 with --fail-on-violation only when an answer broke the spec', async () => {
  const upstream = await target(faithful)
  try {
    const clean = await run(['--target', upstream.base, '--port', '0', '--quiet', '--fail-on-violation'], async (url) => {
      await fetch(`${url}/pets/7`, { headers: { authorization: `Bearer ${KEY}` } })
    })
    expect(clean.code).toBe(0)
    const broken = await run(['--target', upstream.base, '--port', '0', '--quiet', '--fail-on-violation'], async (url) => {
      await fetch(`${url}/pets/8`, { headers: { authorization: `Bearer ${KEY}` } })
    })
    expect(broken.code).toBe(1)
  } finally {
    await upstream.close()
  }
})

it('forwards the method, path, query, headers and body as sent, and no body with GET', async () => {
  const upstream = await target((_seen, res) => json(res, 201, PET))
  try {
    await run(['--target', upstream.base, '--port', '0', '--quiet'], async (url) => {
      await fetch(`${url}/pets?limit=5&status=sold`, { headers: { authorization: `Bearer ${KEY}`, 'x-trace': 'abc' } })
      await fetch(`${url}/pets`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' })
      await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })
      expect((await fetch(`${url}/pets?limit=1`, { method: 'HEAD', headers: { authorization: `Bearer ${KEY}` } })).status).toBe(201)
    })
    expect(upstream.seen.map(({ method, url, body }) => [method, url, body])).toEqual([
      ['GET', '/v1/pets?limit=5&status=sold', ''],
      ['POST', '/v1/pets', '{"name":"Rex","categoryId":1}'],
      ['GET', '/v1/pets', ''],
      ['HEAD', '/v1/pets?limit=1', ''],
    ])
    expect(upstream.seen[0]?.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'x-trace': 'abc', 'accept-encoding': 'identity' })
  } finally {
    await upstream.close()
  }
})

it('passes a redirect on instead of following it', async () => {
  const upstream = await target((_seen, res) => res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end())
  try {
    await run(['--target', upstream.base, '--port', '0', '--quiet'], async (url) => {
      const answer = await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` }, redirect: 'manual' })
      expect(answer.status).toBe(302)
      expect(answer.headers.get('location')).toBe('http://127.0.0.1:9/elsewhere')
    })
    expect(upstream.seen).toHaveLength(1)
  } finally {
    await upstream.close()
  }
})

it('answers 504 after --timeout, and 502 naming the target it cannot reach', async () => {
  const silent = await target(() => undefined)
  try {
    await run(['--target', silent.base, '--port', '0', '--quiet', '--timeout', '200'], async (url) => {
      const started = performance.now()
      const answer = await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })
      expect(answer.status).toBe(504)
      expect(performance.now() - started).toBeGreaterThanOrEqual(190)
    })
  } finally {
    await silent.close()
  }
  await run(['--target', 'http://127.0.0.1:9/v1', '--port', '0', '--quiet'], async (url) => {
    const answer = await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })
    expect(answer.status).toBe(502)
    expect(((await answer.json()) as { message: string }).message).toContain('http://127.0.0.1:9/v1')
  })
})

it('writes every violation as JSON, or as JUnit XML for a name ending in .xml', async () => {
  const upstream = await target(faithful)
  const dir = mkdtempSync(join(tmpdir(), 'proxy-in-process-'))
  try {
    const reports = [join(dir, 'r.json'), join(dir, 'r.xml'), join(dir, 'r.xml.txt')]
    const outcome = await run(['--target', upstream.base, '--port', '0', '--quiet', ...reports.flatMap((file) => ['--report', file])], async (url) => {
      await fetch(`${url}/pets/7`, { headers: { authorization: `Bearer ${KEY}` } })
      await fetch(`${url}/pets/8?x=1`, { headers: { authorization: `Bearer ${KEY}` } })
      await fetch(`${url}/pets/9`, { headers: { authorization: `Bearer ${KEY}` } })
    })
    expect(outcome.code).toBe(0)
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Record<string, unknown>
    expect(report).toMatchObject({ target: upstream.base, exchanges: 3, violations: 2, passed: false })
    expect(report.entries).toEqual([
      expect.objectContaining({ seq: 2, method: 'GET', path: '/v1/pets/8', query: 'x=1', status: 404, aspect: 'body' }),
      expect.objectContaining({ seq: 3, method: 'GET', path: '/v1/pets/9', query: '', status: 404, aspect: 'body' }),
    ])
    expect(Object.keys((report.entries as object[])[0] ?? {})).not.toContain('violations')
    expect(readFileSync(join(dir, 'r.json'), 'utf8').endsWith('}\n')).toBe(true)
    const xml = readFileSync(join(dir, 'r.xml'), 'utf8')
    expect(xml).toContain('failures="2"')
    expect(xml).toContain('<testcase name="GET /v1/pets/8?x=1 #2: body" classname="animals-mock proxy"')
    expect(xml).toContain('<testcase name="GET /v1/pets/9 #3: body" classname="animals-mock proxy"')
    expect(xml).toMatch(/type="violation"/)
    expect(xml).toMatch(/404 at \d{4}-/)
    expect(JSON.parse(readFileSync(join(dir, 'r.xml.txt'), 'utf8'))).toMatchObject({ violations: 2 })
  } finally {
    await upstream.close()
  }
})

it('writes a passing report when no answer broke the spec', async () => {
  const upstream = await target(faithful)
  const dir = mkdtempSync(join(tmpdir(), 'proxy-in-process-'))
  try {
    await run(['--target', upstream.base, '--port', '0', '--quiet', '--report', join(dir, 'r.json'), '--report', join(dir, 'r.xml')], async (url) => {
      await fetch(`${url}/pets/7`, { headers: { authorization: `Bearer ${KEY}` } })
    })
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))).toEqual({ target: upstream.base, exchanges: 1, violations: 0, passed: true, entries: [] })
    const xml = readFileSync(join(dir, 'r.xml'), 'utf8')
    expect(xml).toContain('failures="0"')
    expect(xml).toContain('<testcase name="1 exchanges, no violation" classname="animals-mock proxy"')
  } finally {
    await upstream.close()
  }
})

it('records the animals seen, names those it could not keep, and exits 2 when a file cannot be written', async () => {
  const upstream = await target((seen, res) => {
    if (seen.url === '/v1/pets') json(res, 200, [PET, { id: 9, name: 'Nameless' }, { ...PET, id: 3 }])
    else json(res, 200, PET)
  })
  const dir = mkdtempSync(join(tmpdir(), 'proxy-in-process-'))
  try {
    const file = join(dir, 'seen.json')
    const recorded = await run(['--target', upstream.base, '--port', '0', '--quiet', '--record', file], async (url) => {
      await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` } })
    })
    expect(recorded.code).toBe(0)
    expect(recorded.stderr).toBe(
      `animals-mock: not recorded, not a valid animal: id 9: Field 'categoryId' is required.\nanimals-mock: recorded 2 animals to ${file}\n`,
    )
    expect((JSON.parse(readFileSync(file, 'utf8')) as { id: number }[]).map((pet) => pet.id)).toEqual([3, 7])
    writeFileSync(join(dir, 'a-file'), '')
    const blocked = join(dir, 'a-file', 'x.json')
    const failed = await run(['--target', upstream.base, '--port', '0', '--quiet', '--record', blocked, '--report', blocked, '--fail-on-violation'])
    expect(failed.code).toBe(2)
    expect(failed.stderr).toBe(
      `animals-mock: cannot write ${blocked}: ENOTDIR: not a directory, open '${blocked}'\n`.repeat(2),
    )
    expect(failed.stdout).toContain('animals-mock stopped: 0 exchanges, 0 violations of the spec\n')
    // One file that cannot be written fails the run, whatever is written after it.
    const partly = await run(['--target', upstream.base, '--port', '0', '--quiet', '--report', blocked, '--report', join(dir, 'fine.json')])
    expect(partly.code).toBe(2)
    expect(existsSync(join(dir, 'fine.json'))).toBe(true)
  } finally {
    await upstream.close()
  }
})

it('prints JSON Lines under --log-format json: banner, requests, violations, the stop', async () => {
  const upstream = await target(faithful)
  try {
    const outcome = await run(['--target', upstream.base, '--port', '0', '--log-format', 'json'], async (url) => {
      await fetch(`${url}/pets/8?x=1`, { headers: { authorization: `Bearer ${KEY}` } })
    })
    const origin = outcome.url.replace(/\/v1$/, '')
    const records = outcome.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records[0]).toEqual({
      time: expect.stringMatching(/Z$/),
      event: 'listening',
      url: `${origin}/v1`,
      target: upstream.base,
      dashboard: `${origin}/dashboard`,
      violations: `${origin}/__proxy/violations`,
    })
    expect(records).toContainEqual(expect.objectContaining({ event: 'violation', seq: 1, method: 'GET', path: '/v1/pets/8', query: 'x=1', status: 404, aspect: 'body' }))
    expect(records).toContainEqual({ time: expect.any(String), method: 'GET', path: '/v1/pets/8', status: 404, durationMs: expect.any(Number) })
    expect(records.at(-1)).toEqual({ time: expect.stringMatching(/Z$/), event: 'stopped', exchanges: 1, violations: 1 })
  } finally {
    await upstream.close()
  }
})

it('prints request lines as text unless --quiet, with each violation', async () => {
  const upstream = await target(faithful)
  try {
    const outcome = await run(['--target', upstream.base, '--port', '0'], async (url) => {
      await fetch(`${url}/pets/8?x=1`, { headers: { authorization: `Bearer ${KEY}` } })
    })
    const lines = outcome.stdout.split('\n')
    expect(lines).toContainEqual(expect.stringMatching(/^VIOLATION GET \/v1\/pets\/8\?x=1 404 body: /))
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d GET \/v1\/pets\/8 404 \d+\.\dms$/))
  } finally {
    await upstream.close()
  }
})

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getResponse } from 'msw'
import { afterAll, afterEach, expect, it, vi } from 'vitest'
import { createPactRecording, type PactInteraction, type PactRecording, recordingsToWrite } from '../../src/recording/pact-recording.js'
import { FakeInputError } from '../../src/service/errors.js'
import { createFake } from '../../src/create-fake.js'
import { createHandlers } from '../../src/msw/handlers.js'
import { writePactFile, writePacts } from '../../src/disk/pact-writer.js'
import { escapedForRegExp } from '../support/expectations.js'

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pact-writer-'))
  folders.push(dir)
  return dir
}

/** A recording that hands over these interactions and warnings, as the fake's recorder would. */
function recordingOf(consumer: string, interactions: readonly PactInteraction[], warnings: readonly string[] = []): PactRecording {
  return { consumer, record: () => undefined, interactions: () => [...interactions], warnings: () => [...warnings] }
}

const interaction = (description: string, extra: Record<string, unknown> = {}): PactInteraction => ({ description, type: 'Synchronous/HTTP', ...extra })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const fileOf = (dir: string, consumer: string) => join(dir, `${consumer}-animals-service.json`)
const described = (file: string): string[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as { interactions: { description: string }[] }).interactions.map((each) => each.description)

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return
    await sleep(5)
  }
  throw new Error(`gave up waiting for ${what}`)
}

it('writes <consumer>-animals-service.json: keys sorted at every depth, arrays in their order, two spaces, a final newline', async () => {
  const dir = folder()
  const recording = recordingOf(
    'web-app',
    [
      {
        type: 'Synchronous/HTTP',
        description: 'a request to list animals',
        response: { status: 200, body: null, headers: { 'Content-Type': ['application/json', 'charset=utf-8'] } },
        request: { path: '/pets', method: 'GET', matchingRules: { query: { limit: [{ match: 'integer', min: 1 }] }, a: true } },
        pending: false,
      },
    ],
    ['left out'],
  )
  const written = await writePactFile(recording, dir)
  expect(written).toEqual({ file: fileOf(dir, 'web-app'), interactions: 1, warnings: ['left out'] })
  expect(readFileSync(written.file, 'utf8')).toBe(`{
  "consumer": {
    "name": "web-app"
  },
  "interactions": [
    {
      "description": "a request to list animals",
      "pending": false,
      "request": {
        "matchingRules": {
          "a": true,
          "query": {
            "limit": [
              {
                "match": "integer",
                "min": 1
              }
            ]
          }
        },
        "method": "GET",
        "path": "/pets"
      },
      "response": {
        "body": null,
        "headers": {
          "Content-Type": [
            "application/json",
            "charset=utf-8"
          ]
        },
        "status": 200
      },
      "type": "Synchronous/HTTP"
    }
  ],
  "metadata": {
    "animals-mock": {
      "recordedFrom": "the app tests against the fake"
    },
    "pactSpecification": {
      "version": "4.0"
    }
  },
  "provider": {
    "name": "animals-service"
  }
}
`)
  expect(readdirSync(dir)).toEqual(['web-app-animals-service.json'])
})

it('adds to the interactions already in the file, a new one replacing the one of the same description, all sorted', async () => {
  const dir = folder()
  const file = fileOf(dir, 'web-app')
  // Another worker wrote these (and a hand edit left them out of order).
  const earlier = [interaction('m: list animals', { by: 'earlier' }), interaction('c: get an animal', { by: 'earlier' }), interaction('q: add an animal', { by: 'earlier' })]
  writeFileSync(file, JSON.stringify({ interactions: earlier }))
  const now = [interaction('a: list animals with a limit', { by: 'now' }), interaction('m: list animals', { by: 'now' }), interaction('x: list sold animals', { by: 'now' })]
  const written = await writePactFile(recordingOf('web-app', now), dir)
  expect(written.interactions).toBe(5)
  const { interactions } = JSON.parse(readFileSync(file, 'utf8')) as { interactions: { description: string; by: string }[] }
  expect(interactions.map(({ description, by }) => `${description} (${by})`)).toEqual([
    'a: list animals with a limit (now)',
    'c: get an animal (earlier)',
    'm: list animals (now)',
    'q: add an animal (earlier)',
    'x: list sold animals (now)',
  ])
})

it('writes the same bytes for the same traffic, whatever order it was written in', async () => {
  const dir = folder()
  const file = fileOf(dir, 'web-app')
  const all = ['e', 'b', 'd', 'a', 'c'].map((letter) => interaction(`a request ${letter}`, { z: letter, y: [letter] }))
  await writePactFile(recordingOf('web-app', all.slice(0, 2)), dir)
  await writePactFile(recordingOf('web-app', all.slice(2)), dir)
  const once = readFileSync(file, 'utf8')
  expect(described(file)).toEqual(['a request a', 'a request b', 'a request c', 'a request d', 'a request e'])
  await writePactFile(recordingOf('web-app', [...all].reverse()), dir)
  expect(readFileSync(file, 'utf8')).toBe(once)
})

it('records the fake traffic it observed into the file, a real pact', async () => {
  const dir = folder()
  const recording = createPactRecording('shop')
  const fake = createFake()
  fake.observe(recording.record)
  const request = { method: 'GET', basePath: '/v1', search: '', body: undefined }
  fake.handle({ ...request, path: '/pets/999999', headers: { authorization: 'Bearer k' } })
  fake.handle({ ...request, path: '/pets', headers: {} })
  const written = await writePactFile(recording, dir)
  expect(written.interactions).toBe(2)
  expect(described(written.file)).toEqual(['a request to get an animal that does not exist', 'a request to list animals without a key'])
})

it('creates the pact folder, however deep, when it does not exist', async () => {
  const dir = join(folder(), 'pacts', 'recorded')
  const written = await writePactFile(recordingOf('web-app', [interaction('a')]), dir)
  expect(written.file).toBe(fileOf(dir, 'web-app'))
  expect(described(written.file)).toEqual(['a'])
})

it('starts afresh from a pact file without a list of interactions', async () => {
  const dir = folder()
  writeFileSync(fileOf(dir, 'web-app'), '{"consumer":{"name":"web-app"},"interactions":{"a":1}}')
  await writePactFile(recordingOf('web-app', [interaction('recorded')]), dir)
  expect(described(fileOf(dir, 'web-app'))).toEqual(['recorded'])
})

it('leaves a pact file that is not JSON as it is, writes the recording beside it, and says so, with no lock or temporary behind', async () => {
  const dir = folder()
  writeFileSync(fileOf(dir, 'web-app'), '{"interactions": [')
  const refused = await writePactFile(recordingOf('web-app', [interaction('a'), interaction('b')]), dir).then(
    () => undefined,
    (error: unknown) => error,
  )
  const [broken, kept] = readdirSync(dir).sort()
  expect(broken).toBe('web-app-animals-service.json')
  expect(kept).toMatch(/^web-app-animals-service\.recorded-[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}-[0-9]{2}-[0-9]{2}-[0-9]{3}Z\.json$/)
  expect(readdirSync(dir)).toHaveLength(2)
  expect(refused).toBeInstanceOf(FakeInputError)
  expect(refused).toMatchObject({
    code: 'pact_file_unusable',
    status: 409,
    message: `The pact file ${fileOf(dir, 'web-app')} is not JSON (Unexpected end of JSON input), so it was left as it is; the 2 interaction(s) recorded were written to ${join(dir, kept ?? '')} instead.`,
  })
  expect(readFileSync(fileOf(dir, 'web-app'), 'utf8')).toBe('{"interactions": [')
  expect(described(join(dir, kept ?? ''))).toEqual(['a', 'b'])
})

it('writes through a new temporary file: a link planted at a predictable name is not followed', async () => {
  const dir = folder()
  const planted = join(dir, 'elsewhere.json')
  writeFileSync(planted, 'untouched')
  symlinkSync(planted, `${fileOf(dir, 'web-app')}.${process.pid}.tmp`)
  await writePactFile(recordingOf('web-app', [interaction('a')]), dir)
  expect(readFileSync(planted, 'utf8')).toBe('untouched')
  expect(described(fileOf(dir, 'web-app'))).toEqual(['a'])
})

it('waits while another writer holds the lock, and writes once it is released', async () => {
  const dir = folder()
  const lock = `${fileOf(dir, 'web-app')}.lock`
  mkdirSync(lock)
  let done = false
  const writing = writePactFile(recordingOf('web-app', [interaction('a')]), dir).finally(() => {
    done = true
  })
  await sleep(150)
  expect(done).toBe(false)
  expect(existsSync(fileOf(dir, 'web-app'))).toBe(false)
  rmdirSync(lock)
  await writing
  expect(described(fileOf(dir, 'web-app'))).toEqual(['a'])
  expect(readdirSync(dir)).toEqual(['web-app-animals-service.json'])
})

it('gives up on a lock held for more than 10 s, not a moment before, saying how to clear it', async () => {
  const dir = folder()
  const lock = `${fileOf(dir, 'web-app')}.lock`
  mkdirSync(lock)
  vi.useFakeTimers({ toFake: ['Date'] })
  const start = Date.now()
  let outcome: unknown = 'waiting'
  void writePactFile(recordingOf('web-app', [interaction('a')]), dir).then(
    () => {
      outcome = 'written'
    },
    (error: unknown) => {
      outcome = error
    },
  )
  await sleep(100)
  vi.setSystemTime(start + 10_000)
  await sleep(200)
  expect(outcome).toBe('waiting')
  vi.setSystemTime(start + 10_001)
  await until(() => outcome !== 'waiting', 'the writer to give up')
  expect(outcome).toBeInstanceOf(FakeInputError)
  expect((outcome as Error).message).toMatch(
    new RegExp(`^${escapedForRegExp(lock)} has been held for 10 s by a writer that left no process id; if no test run is writing, remove it; the 1 interaction\\(s\\) recorded were written to ${escapedForRegExp(dir)}/web-app-animals-service\\.recorded-[-0-9TZ]+\\.json instead\\.$`),
  )
  expect(existsSync(lock)).toBe(true)
  expect(existsSync(fileOf(dir, 'web-app'))).toBe(false)
})

it('takes over at once a lock whose holder no longer runs (a writer killed mid-write)', async () => {
  const dir = folder()
  const lock = `${fileOf(dir, 'web-app')}.lock`
  mkdirSync(lock)
  // A process that ran and ended: its id is free.
  const gone = spawnSync(process.execPath, ['-e', '']).pid ?? 0
  writeFileSync(join(lock, 'holder'), String(gone))
  const started = Date.now()
  await writePactFile(recordingOf('web-app', [interaction('a')]), dir)
  expect(Date.now() - started).toBeLessThan(5_000)
  expect(described(fileOf(dir, 'web-app'))).toEqual(['a'])
  expect(readdirSync(dir)).toEqual(['web-app-animals-service.json'])
})

it('waits for a lock whose holder still runs', async () => {
  const dir = folder()
  const lock = `${fileOf(dir, 'web-app')}.lock`
  mkdirSync(lock)
  writeFileSync(join(lock, 'holder'), String(process.pid))
  let done = false
  const writing = writePactFile(recordingOf('web-app', [interaction('a')]), dir).finally(() => {
    done = true
  })
  await sleep(150)
  expect(done).toBe(false)
  rmSync(lock, { recursive: true })
  await writing
  expect(described(fileOf(dir, 'web-app'))).toEqual(['a'])
})

// sysfs lets no one make folders, not even root.
it.runIf(process.platform === 'linux')('refuses at once a pact folder it cannot write in, with the system reason', async () => {
  await expect(writePactFile(recordingOf('web-app', [interaction('a')]), '/sys')).rejects.toMatchObject({ code: expect.stringMatching(/^(EPERM|EACCES)$/) })
})

it('writes every pact recorded through the msw handlers, and warns of what was left out, one line each', async () => {
  const dir = folder()
  const baseUrl = 'http://writer-warned.test/v1'
  const handlers = createHandlers({ baseUrl, fake: createFake(), recordPact: { consumer: 'warned-app', dir } })
  const auth = { authorization: 'Bearer k' }
  await getResponse(handlers, new Request(`${baseUrl}/pets/999999`, { headers: auth }))
  await getResponse(handlers, new Request(`${baseUrl}/pets`, { headers: { ...auth, prefer: 'code=503' } }))
  await getResponse(handlers, new Request(`${baseUrl}/nothing`, { headers: auth }))
  const warnings: string[] = []
  const written = await writePacts({ warn: (text) => warnings.push(text) })
  // One file per recording of this process (other test files may have some), in their order.
  expect(written.map((each) => each.file)).toEqual(recordingsToWrite().map(({ recording, dir }) => fileOf(dir, recording.consumer)))
  const file = fileOf(dir, 'warned-app')
  const mine = written.find((each) => each.file === file)
  expect(mine).toEqual({
    file,
    interactions: 1,
    warnings: [
      'GET /v1/nothing: a request the spec does not define: not recorded',
      'GET /v1/pets: a forced answer (a Prefer header or a forced rule) is a test\'s choice, not the service\'s: not recorded',
    ],
  })
  expect(warnings.filter((text) => text.includes(file))).toEqual([
    `animals-mock: not recorded in ${file}, as the spec does not promise it:\n` +
      '  - GET /v1/nothing: a request the spec does not define: not recorded\n' +
      '  - GET /v1/pets: a forced answer (a Prefer header or a forced rule) is a test\'s choice, not the service\'s: not recorded',
  ])
  expect(described(file)).toEqual(['a request to get an animal that does not exist'])
})

it('warns on the console unless told where, and not at all for a pact with nothing left out', async () => {
  const warnedDir = folder()
  const quietDir = folder()
  const baseUrl = 'http://writer-console.test/v1'
  const auth = { authorization: 'Bearer k' }
  const warned = createHandlers({ baseUrl, fake: createFake(), recordPact: { consumer: 'console-app', dir: warnedDir } })
  await getResponse(warned, new Request(`${baseUrl}/nothing`, { headers: auth }))
  const quiet = createHandlers({ baseUrl, fake: createFake(), recordPact: { consumer: 'quiet-app', dir: quietDir } })
  await getResponse(quiet, new Request(`${baseUrl}/pets/999999`, { headers: auth }))
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  const written = await writePacts()
  const texts = warn.mock.calls.map(([text]) => String(text))
  expect(texts.filter((text) => text.includes(warnedDir))).toEqual([
    `animals-mock: not recorded in ${fileOf(warnedDir, 'console-app')}, as the spec does not promise it:\n  - GET /v1/nothing: a request the spec does not define: not recorded`,
  ])
  expect(texts.filter((text) => text.includes(quietDir))).toEqual([])
  expect(written.find((each) => each.file === fileOf(quietDir, 'quiet-app'))).toMatchObject({ interactions: 1, warnings: [] })
})

it('refuses when a folder stands in place of the pact file, leaving no temporary behind', async () => {
  const dir = folder()
  mkdirSync(join(fileOf(dir, 'web-app'), 'inside'), { recursive: true })
  await expect(writePactFile(recordingOf('web-app', [interaction('a')]), dir)).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) })
  expect(readdirSync(dir)).toEqual(['web-app-animals-service.json'])
  expect(readdirSync(fileOf(dir, 'web-app'))).toEqual(['inside'])
})

// A second implementation of the animals service, written from the spec's text alone: nothing
// here comes from src/. Wherever the spec leaves a choice open it chooses otherwise than the fake
// (see CHOICES), so a tool that passes it and the fake alike judges by the spec, not by the fake.
// Each drift breaks one rule of the spec, to show that the tools catch it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One way of breaking the spec, by name; `undefined` for the correct service. */
export type Drift =
  | 'empty token accepted'
  | 'body checked before the key'
  | 'refused request still stored'
  | 'categoryId "5" accepted'
  | 'categoryId null accepted'
  | 'categoryId true accepted'
  | 'categoryId 1.5 accepted'
  | 'limit=0 answered with no animals'
  | 'limit=101 answered with 101 animals'
  | 'limit=abc answered with the default'
  | 'limit=1.5 answered with the default'
  | 'status=bogus answered 200'
  | 'status=toString answered 200'
  | 'new ids reuse seeded ids'
  | 'parallel creations share an id'
  | 'a 2 MiB body stops the service'
  | 'the key is not checked'
  | 'createPet answers 200'
  | 'default limit is 10'
  | 'the status filter is ignored'
  | 'an unknown id is found'
  | 'Error status differs from HTTP status'
  | 'Sunset of 1 December 2030'
  | 'ids are strings'
  | 'the created animal loses its status'

/** Options of `startIndependentService`. */
export type IndependentOptions = {
  /** The keys it accepts. */
  readonly keys: readonly string[]
  /** How many animals it starts with (ids 1..n, every third one sold). */
  readonly seeded?: number
  /** `true` (RFC 9745's early form) or no deprecation header at all. */
  readonly deprecation?: 'true' | 'none'
  readonly drift?: Drift
}

/** A running independent service. */
export type IndependentService = { readonly baseUrl: string; close(): Promise<void> }

type Animal = { id: number; name: string; categoryId: number; status: string }

const STATUSES = ['available', 'pending', 'sold']
const BODY_LIMIT = 64 * 1024

/** Starts the service on an ephemeral loopback port, its API at `/api/v1`. */
export async function startIndependentService(options: IndependentOptions): Promise<IndependentService> {
  const { drift } = options
  const animals: Animal[] = []
  for (let id = 1; id <= (options.seeded ?? 0); id++) {
    animals.push({ id, name: `Seeded ${id}`, categoryId: (id % 5) + 1, status: STATUSES[id % 3] ?? 'available' })
  }
  // Ids continue from 1000 above the seeded ones; the drift starts over at 1.
  let nextId = drift === 'new ids reuse seeded ids' ? 1 : animals.length + 1000
  let wedged = false

  const server: Server = createServer((req, res) => {
    if (wedged) return // never answered: the service is stuck
    void handle(req, res).catch(() => reply(res, 500, fault(500, 'INTERNAL', 'Something went wrong.')))
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://independent')
    if (!url.pathname.startsWith('/api/v1/')) return reply(res, 404, fault(404, 'NOT_FOUND', 'There is nothing here.'))
    const path = url.pathname.slice('/api/v1'.length)
    const body = await readBody(req)
    if (body === 'too large') {
      if (drift === 'a 2 MiB body stops the service') wedged = true
      return reply(res, 413, fault(413, 'TOO_LARGE', 'Request bodies are limited to 64 KiB.'))
    }
    const isCreate = req.method === 'POST' && path === '/pets'
    if (drift === 'body checked before the key' && isCreate && validate(body).error !== undefined) {
      return reply(res, 400, fault(400, 'VALIDATION_FAILED', validate(body).error ?? ''))
    }
    if (!authorized(req.headers.authorization)) {
      if (drift === 'refused request still stored' && isCreate) {
        const valid = validate(body)
        if (valid.animal !== undefined) animals.push({ ...valid.animal, id: nextId++ })
      }
      return reply(res, 401, fault(401, 'UNAUTHENTICATED', 'Sign in with a bearer API key.'))
    }
    if (path === '/pets' && req.method === 'GET') return list(url.searchParams, res)
    if (isCreate) return create(body, res)
    const match = /^\/pets\/([0-9]+)$/.exec(path)
    if (match !== null && req.method === 'GET') return find(match[1] ?? '', res)
    return reply(res, 404, fault(404, 'NOT_FOUND', `No resource at ${req.method} ${path}.`))
  }

  function authorized(header: string | undefined): boolean {
    if (drift === 'the key is not checked') return true
    const match = /^Bearer(?: (.*))?$/.exec(header ?? '')
    if (match === null) return false
    const token = match[1] ?? ''
    if (token === '') return drift === 'empty token accepted'
    return options.keys.includes(token)
  }

  function list(query: URLSearchParams, res: ServerResponse): void {
    const limitText = query.get('limit')
    let limit = drift === 'default limit is 10' ? 10 : 20
    if (limitText !== null) {
      const parsed = parseLimit(limitText)
      if (parsed === undefined) return reply(res, 400, fault(400, 'BAD_LIMIT', 'The limit must be a whole number from 1 to 100.'))
      limit = parsed
    }
    const status = query.get('status')
    if (status !== null && !knownStatus(status)) {
      if (!(drift === 'status=bogus answered 200' && status === 'bogus')) {
        return reply(res, 400, fault(400, 'BAD_STATUS', 'Unknown status filter.'))
      }
    }
    const filtered = status === null || drift === 'the status filter is ignored' ? animals : animals.filter((each) => each.status === status)
    // Newest first.
    reply(res, 200, [...filtered].reverse().slice(0, limit).map(publish))
  }

  function parseLimit(text: string): number | undefined {
    if (drift === 'limit=0 answered with no animals' && text === '0') return 0
    if (drift === 'limit=101 answered with 101 animals' && text === '101') return 101
    if ((drift === 'limit=abc answered with the default' && text === 'abc') || (drift === 'limit=1.5 answered with the default' && text === '1.5')) {
      return 20
    }
    if (!/^[1-9][0-9]{0,2}$/.test(text)) return undefined
    const value = Number(text)
    return value <= 100 ? value : undefined
  }

  function knownStatus(status: string): boolean {
    // The drift looks the status up in an object, as a plain-object table would: `toString` is found.
    if (drift === 'status=toString answered 200') return status in { available: 1, pending: 1, sold: 1 }
    return STATUSES.includes(status)
  }

  async function create(body: string, res: ServerResponse): Promise<void> {
    const valid = validate(body)
    if (valid.animal === undefined) return reply(res, 400, fault(400, 'VALIDATION_FAILED', valid.error ?? 'Invalid animal.'))
    const id = drift === 'parallel creations share an id' ? await sharedId() : nextId++
    const animal = { ...valid.animal, id }
    animals.push(animal)
    const shown = drift === 'the created animal loses its status' ? { ...publish(animal), status: undefined } : publish(animal)
    reply(res, drift === 'createPet answers 200' ? 200 : 201, shown)
  }

  // The drift's lost update: a creation reads the counter, then waits for its write while others
  // arrive and read the same value. The wait ends when a burst of 20 (what a client sends at once)
  // has read it, or when no creation has come for half a second; how fast they come (a busy
  // machine spreads them out) changes nothing, so long as none is half a second behind the last.
  let burst: { readonly id: number; readonly members: (() => void)[]; idle?: ReturnType<typeof setTimeout> } | undefined
  function sharedId(): Promise<number> {
    burst ??= { id: nextId, members: [] }
    const current = burst
    clearTimeout(current.idle)
    const joined = new Promise<number>((resolve) => current.members.push(() => resolve(current.id)))
    const release = (): void => {
      clearTimeout(current.idle)
      if (burst === current) burst = undefined
      nextId = current.id + 1
      for (const member of current.members) member()
    }
    if (current.members.length >= 20) release()
    else current.idle = setTimeout(release, 500)
    return joined
  }

  function validate(body: string): { animal?: Omit<Animal, 'id'>; error?: string } {
    let value: unknown
    try {
      value = JSON.parse(body)
    } catch {
      return { error: 'The body must be a JSON object.' }
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'The body must be a JSON object.' }
    const { name, categoryId, status = 'available' } = value as Record<string, unknown>
    if (typeof name !== 'string') return { error: 'A name is needed.' }
    const category = acceptedCategory(categoryId)
    if (category === undefined) return { error: 'categoryId must be a whole number.' }
    if (typeof status !== 'string' || !STATUSES.includes(status)) return { error: 'Unknown status.' }
    return { animal: { name, categoryId: category, status } }
  }

  function acceptedCategory(value: unknown): number | undefined {
    if (Number.isSafeInteger(value)) return value as number
    if (drift === 'categoryId "5" accepted' && typeof value === 'string' && /^[0-9]+$/.test(value)) return Number(value)
    if (drift === 'categoryId null accepted' && value === null) return 0
    if (drift === 'categoryId true accepted' && value === true) return 1
    if (drift === 'categoryId 1.5 accepted' && typeof value === 'number') return Math.trunc(value)
    return undefined
  }

  function find(idText: string, res: ServerResponse): void {
    const headers: Record<string, string> = {}
    if (options.deprecation !== 'none') headers.deprecation = 'true'
    headers.sunset = drift === 'Sunset of 1 December 2030' ? 'Sun, 01 Dec 2030 00:00:00 GMT' : 'Thu, 05 Dec 2030 23:59:59 GMT'
    const animal = animals.find((each) => String(each.id) === idText)
    if (animal === undefined) {
      if (drift === 'an unknown id is found') return reply(res, 200, { id: Number(idText), name: 'Ghost', categoryId: 1 }, headers)
      return reply(res, 404, fault(404, 'NOT_FOUND', 'That animal is unknown.'), headers)
    }
    reply(res, 200, publish(animal), headers)
  }

  function publish(animal: Animal): Record<string, unknown> {
    return drift === 'ids are strings' ? { ...animal, id: String(animal.id) } : { ...animal }
  }

  function fault(status: number, code: string, message: string): Record<string, unknown> {
    return { code, message, status: drift === 'Error status differs from HTTP status' ? 400 : status }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The body as text, or 'too large' once it passes 64 KiB (the rest is read and dropped, so the client hears the 413). */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= BODY_LIMIT) chunks.push(chunk)
    })
    req.on('end', () => resolve(size > BODY_LIMIT ? 'too large' : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

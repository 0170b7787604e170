import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFake, type Fake } from '../../src/create-fake.js'
import { type BodyLimits, type Exchange, type RunningServer, startServer } from '../../src/node/server.js'
import { API_BASE, createSite } from '../../src/site/site.js'
import { TEST_KEY } from '../support/api-client.js'
import { serveFake } from '../support/served-fake.js'

const servers: RunningServer[] = []
const sockets: Socket[] = []
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await Promise.all(servers.map((server) => server.close()))
})

async function serve(bodyLimits: Partial<BodyLimits>, onExchange?: (exchange: Exchange) => void): Promise<{ fake: Fake; server: RunningServer }> {
  const fake = createFake({ keys: [TEST_KEY] })
  // Keep-alive and request timeouts past any test's time, even under the mutation run's longer
  // test timeout: the connections these tests see closed are closed by the body limits, not by an
  // idle connection's timeout nor by a request's (each once hid a linger timer that never fired).
  const timeouts = { keepAliveMs: 600_000, requestMs: 600_000 }
  const server = await startServer({ app: createSite({ api: fake }), bodyLimits, timeouts, ...(onExchange === undefined ? {} : { onExchange }) })
  servers.push(server)
  return { fake, server }
}

/** A raw connection that sends what it is told, when it is told, and keeps everything it receives. */
type Connection = {
  send(bytes: string): Promise<void>
  /** Resolves with what has arrived once it passes `predicate`. */
  receivedWhen(predicate: (text: string) => boolean): Promise<string>
  readonly closed: Promise<void>
  readonly isClosed: () => boolean
  /** Goes away without a word, as a browser tab closed mid-request does. */
  destroy(): void
}

function open(server: RunningServer): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(server.port, '127.0.0.1')
    sockets.push(socket)
    let text = ''
    let ended = false
    const waiting = new Set<() => void>()
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk
      for (const check of waiting) check()
    })
    socket.on('error', () => {}) // a reset shows as a close
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        ended = true
        done()
      }),
    )
    socket.once('connect', () =>
      resolve({
        send: (bytes) => new Promise<void>((done) => socket.write(bytes, () => done())),
        receivedWhen: (predicate) =>
          new Promise((done) => {
            const check = (): void => {
              if (!predicate(text)) return
              waiting.delete(check)
              done(text)
            }
            waiting.add(check)
            check()
          }),
        closed,
        isClosed: () => ended,
        destroy: () => socket.destroy(),
      }),
    )
    socket.once('error', reject)
  })
}

// The server reads what has arrived on its next turns of the event loop; there is no signal a
// client can wait for, so it leaves it a moment.
const settle = () => new Promise((resolve) => setTimeout(resolve, 150))

const postHead = (length: number) =>
  `POST ${API_BASE}/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

/** A valid new animal, padded with spaces to exactly `length` bytes. */
const animalOf = (length: number) => {
  const json = '{"name":"Padded","categoryId":1}'
  return json + ' '.repeat(length - json.length)
}

const statusOf = (text: string) => Number(text.split(' ')[1])

it('holds bodies up to exactly the in-flight limit together, refuses the byte past it with 503, and takes new bodies once the others are read', async () => {
  const { server } = await serve({ inFlightBytes: 1000 })
  const first = await open(server)
  await first.send(postHead(600) + animalOf(600).slice(0, 500))
  await settle()
  const second = await open(server)
  await second.send(postHead(500) + animalOf(500).slice(0, 500)) // 1,000 bytes held: at the limit
  const created = await second.receivedWhen((text) => text.includes('}'))
  expect(statusOf(created)).toBe(201)
  // The second body was read whole and let go: 500 held, and 501 more is one past the limit.
  const third = await open(server)
  await third.send(postHead(600) + animalOf(600).slice(0, 501))
  const busy = await third.receivedWhen((text) => text.includes('}'))
  expect(statusOf(busy)).toBe(503)
  expect(busy).toContain('"code":"server_busy"')
  expect(busy).toContain('"message":"The fake is receiving too many large bodies at once; try again."')
  await first.send(animalOf(600).slice(500))
  expect(statusOf(await first.receivedWhen((text) => text.includes('}')))).toBe(201)
  // Every body is let go: one of the whole limit is taken again.
  const last = await open(server)
  await last.send(postHead(1000) + animalOf(1000))
  expect(statusOf(await last.receivedWhen((text) => text.includes('}')))).toBe(201)
})

it('lets go of the body of a client that went away halfway', async () => {
  const { server } = await serve({ inFlightBytes: 1000 })
  const leaving = connect(server.port, '127.0.0.1')
  await new Promise<void>((resolve) => leaving.write(postHead(1000) + animalOf(1000).slice(0, 900), () => resolve()))
  await settle()
  leaving.destroy()
  await settle()
  const next = await open(server)
  await next.send(postHead(1000) + animalOf(1000))
  expect(statusOf(await next.receivedWhen((text) => text.includes('}')))).toBe(201)
})

it('lets go of the part of a body it refused as too large', async () => {
  const { fake, server } = await serve({ inFlightBytes: 2 * 1024 * 1024 })
  // Sent in chunks, with no Content-Length to refuse it by: it is refused at its 1,048,577th byte.
  const large = await open(server)
  const size = 1024 * 1024 + 1
  await large.send(`POST ${API_BASE}/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${size.toString(16)}\r\n${animalOf(size)}\r\n`)
  const refused = await large.receivedWhen((text) => text.includes('}'))
  expect(statusOf(refused)).toBe(413)
  // The body ends after its answer: the refused animal, valid JSON, never reaches the fake,
  // neither its store nor its journal.
  const journaled = fake.journal().length
  await large.send('0\r\n\r\n')
  await settle()
  expect(fake.snapshot().map((pet) => pet.name)).not.toContain('Padded')
  expect(fake.journal()).toHaveLength(journaled)
  // Had the refused 1 MiB stayed counted, 1 MiB more would pass the 2 MiB in flight.
  const next = await open(server)
  await next.send(postHead(1024 * 1024) + animalOf(1024 * 1024))
  expect(statusOf(await next.receivedWhen((text) => text.includes('}')))).toBe(201)
})

it('does not count what it drops after a refusal among the bodies in flight', async () => {
  const { server } = await serve({ inFlightBytes: 1.5 * 1024 * 1024, lingerBytes: 4 * 1024 * 1024, lingerMs: 60_000 })
  const large = await open(server)
  await large.send(`POST ${API_BASE}/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`)
  const size = 1024 * 1024 + 1
  await large.send(`${size.toString(16)}\r\n${animalOf(size)}\r\n`)
  expect(statusOf(await large.receivedWhen((text) => text.includes('}')))).toBe(413)
  // Dropped, not held: 0.9 MiB more, still arriving on the refused request's connection.
  const more = 900 * 1024
  await large.send(`${more.toString(16)}\r\n${'x'.repeat(more)}\r\n`)
  await settle()
  expect(large.isClosed()).toBe(false)
  const next = await open(server)
  await next.send(postHead(1024 * 1024) + animalOf(1024 * 1024))
  expect(statusOf(await next.receivedWhen((text) => text.includes('}')))).toBe(201)
})

it('after a refusal, reads and drops up to exactly lingerBytes more of the body, then closes the connection', async () => {
  const { server } = await serve({ lingerBytes: 10_000, lingerMs: 600_000 })
  const client = await open(server)
  // Refused by its Content-Length (past the API's 1 MiB) before a byte of the body is read.
  await client.send(postHead(2 * 1024 * 1024))
  const refused = await client.receivedWhen((text) => text.includes('}'))
  expect(statusOf(refused)).toBe(413)
  expect(refused).toContain('"message":"The request body is larger than 1048576 bytes."')
  await client.send('x'.repeat(6_000))
  await client.send('x'.repeat(4_000))
  await settle()
  expect(client.isClosed()).toBe(false)
  await client.send('x')
  await client.closed
})

it('after a refusal, closes a connection whose body stops coming once lingerMs have passed', async () => {
  const { server } = await serve({ lingerMs: 200 })
  const client = await open(server)
  await client.send(postHead(2 * 1024 * 1024))
  expect(statusOf(await client.receivedWhen((text) => text.includes('}')))).toBe(413)
  await client.closed
})

it('keeps serving a keep-alive connection whose refused body was sent whole, past lingerMs', async () => {
  const { server } = await serve({ lingerMs: 200 })
  const client = await open(server)
  const length = 1024 * 1024 + 1
  await client.send(postHead(length) + 'x'.repeat(length))
  expect(statusOf(await client.receivedWhen((text) => text.includes('}')))).toBe(413)
  await new Promise((resolve) => setTimeout(resolve, 400))
  expect(client.isClosed()).toBe(false)
  await client.send(`GET ${API_BASE}/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`)
  const both = await client.receivedWhen((text) => text.split('HTTP/1.1 ').length === 3)
  expect(statusOf(both.slice(both.lastIndexOf('HTTP/1.1 ')))).toBe(200)
})

it('reports an exchange whose client gave up while its answer was held back, once, with no status', async () => {
  const exchanges: Exchange[] = []
  const { fake, server } = await serve({}, (exchange) => exchanges.push(exchange))
  // The delay is long beside the waits below, so the report seen after the client left comes
  // from its leaving, not from the held answer's timer firing on a slow machine.
  fake.force({ method: 'GET', path: '/pets', delayMs: 2_000, times: 1 })
  const client = await open(server)
  await client.send(`GET ${API_BASE}/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`)
  await settle()
  expect(exchanges).toEqual([])
  client.destroy()
  await settle()
  expect(exchanges.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'GET', path: '/v1/pets', status: null }])
  // Past the delay nothing more is reported, and the next request is answered as usual.
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  const next = await open(server)
  await next.send(`GET ${API_BASE}/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`)
  expect(statusOf(await next.receivedWhen((text) => text.includes(']')))).toBe(200)
  await settle()
  expect(exchanges.map(({ status }) => status)).toEqual([null, 200])
})

describe('closing after a refusal', () => {
  let server: RunningServer | undefined
  afterAll(() => server?.close())

  // A refused request's body is read and dropped, the connection kept open even when the client
  // asked to close it, so that the client reads the answer rather than a reset (exchange.ts,
  // refuse). A request without a body has nothing left to send: its connection closes as asked.
  it('closes the connection it was asked to close after refusing a request without a body', async () => {
    // Keep-alive past the test's time: a connection left open is not closed by its timeout.
    server = await startServer({ app: createSite({ api: createFake({ keys: [TEST_KEY] }) }), timeouts: { keepAliveMs: 600_000, requestMs: 600_000 } })
    const socket = connect(server.port, '127.0.0.1')
    await once(socket, 'connect')
    let text = ''
    const answered = new Promise<void>((resolve) =>
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk
        if (text.endsWith('}')) resolve()
      }),
    )
    const ended = once(socket, 'end')
    // No Host, so it is refused; and no half-close, so only the server can end the connection.
    socket.write(`GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`)
    await answered
    expect(text).toMatch(/^HTTP\/1\.1 400 /)
    expect(text).toContain('"code":"bad_request"')
    expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n')
    await ended
    socket.destroy()
  })
})

describe('a body in pieces', () => {
  let fake: Fake
  let server: RunningServer
  beforeAll(async () => ({ fake, server } = await serveFake()))
  afterAll(() => server.close())

  /** Sends each piece in its own write, a moment apart, so the server reads them as separate chunks. */
  function sendInPieces(pieces: readonly string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', async () => {
        for (const piece of pieces) {
          socket.write(piece)
          await new Promise((done) => setTimeout(done, 50))
        }
      })
      let text = ''
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      socket.on('error', reject)
      socket.on('close', () => resolve(text))
    })
  }

  it('reads a body that arrives in pieces split inside its JSON as the whole body', async () => {
    const body = '{"name":"Split across chunks","categoryId":3}'
    const head = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`
    const answer = await sendInPieces([head + body.slice(0, 12), body.slice(12, 30), body.slice(30)])
    expect(answer.split(' ')[1]).toBe('201')
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ name: 'Split across chunks', categoryId: 3 })
    expect(fake.snapshot().at(-1)).toMatchObject({ name: 'Split across chunks', categoryId: 3 })
  })
})

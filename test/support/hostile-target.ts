// A "staging" that attacks the proxy in front of it: answers of hundreds of megabytes, gzip bombs,
// a body that trickles, credentials echoed back, headers a proxy must not pass. Nothing here comes
// from src/. Its API is at `/api/v1`; what it was sent is kept for the tests to read.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createGzip } from 'node:zlib'

/** A request as the target saw it. */
export type SeenRequest = { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string | string[] | undefined>> }

/** A running hostile target. */
export type HostileTarget = {
  readonly baseUrl: string
  readonly seen: readonly SeenRequest[]
  close(): Promise<void>
}

const ANIMAL = (id: number): string => `{"id":${id},"name":"Animal ${id}","categoryId":1,"status":"sold"}`

/** Gzips `count` chunks made by `chunk(index)`, one at a time, without ever holding the whole. */
async function gzipped(count: number, chunk: (index: number) => string): Promise<Buffer> {
  const gzip = createGzip({ level: 9 })
  const out: Buffer[] = []
  gzip.on('data', (piece: Buffer) => out.push(piece))
  const ended = new Promise<void>((resolve) => gzip.on('end', resolve))
  for (let index = 0; index < count; index++) {
    if (!gzip.write(chunk(index))) await new Promise((resolve) => gzip.once('drain', resolve))
  }
  gzip.end()
  await ended
  return Buffer.concat(out)
}

/** 400 MiB of zeros, gzipped: about 400 KB on the wire. */
export function gzipBomb(): Promise<Buffer> {
  const zeros = '\0'.repeat(1024 * 1024)
  return gzipped(400, () => zeros)
}

/**
 * A valid list of about `bytes` of animals, gzipped: the same 100 animals over and over, which
 * compress as far as deflate goes (300 MB comes to under 1 MB), in 1 MB writes.
 */
export function gzippedList(bytes: number): Promise<Buffer> {
  const hundred = Array.from({ length: 100 }, (_, i) => ANIMAL(i + 1)).join(',')
  const batch = Array.from({ length: Math.ceil(1_000_000 / hundred.length) }, () => hundred).join(',')
  const batches = Math.max(1, Math.round(bytes / batch.length))
  return gzipped(batches + 1, (index) => (index === 0 ? `[${batch}` : index < batches ? `,${batch}` : ']'))
}

/** Writes a valid list of about `bytes` (never more) as the client reads it, stopping when the client goes. */
function streamList(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' })
  let written = 1 // the closing bracket
  let id = 0
  const chunk = (): string => {
    let text = ''
    while (text.length < 64 * 1024) {
      const next = `${id === 0 ? '[' : ','}${ANIMAL(id + 1)}`
      if (written + text.length + next.length > bytes) break
      text += next
      id += 1
    }
    written += text.length
    return text
  }
  const pump = (): void => {
    for (let text = chunk(); text !== '' && !res.destroyed; text = chunk()) {
      if (!res.write(text)) {
        res.once('drain', pump)
        return
      }
    }
    if (!res.destroyed) res.end(id === 0 ? '[]' : ']')
  }
  pump()
}

/** Starts the target on an ephemeral loopback port; `bodies` are the gzipped answers it serves. */
export async function startHostileTarget(bodies: { readonly bomb?: Buffer; readonly list?: Buffer } = {}): Promise<HostileTarget> {
  const seen: SeenRequest[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? 'GET', url: req.url ?? '', headers: { ...req.headers } })
    const url = new URL(req.url ?? '/', 'http://target')
    const query = url.searchParams
    req.resume()
    if (query.has('size')) return streamList(res, Number(query.get('size')))
    if (query.get('gzip') === 'bomb' && bodies.bomb !== undefined) {
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bodies.bomb.length }).end(bodies.bomb)
    }
    if (query.get('gzip') === 'list' && bodies.list !== undefined) {
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bodies.list.length }).end(bodies.list)
    }
    if (query.has('trickle')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      const timer = setInterval(() => res.write(' '), 100)
      res.on('close', () => clearInterval(timer))
      return
    }
    if (query.has('echo')) {
      // The request's credentials come back in animals' names and in an Error body's status.
      const authorization = req.headers.authorization ?? ''
      const cookie = req.headers.cookie ?? ''
      if (query.get('echo') === 'error') {
        return void res.writeHead(404, { 'content-type': 'application/json', sunset: authorization }).end(JSON.stringify({ code: 'gone', message: 'No such animal.', status: authorization }))
      }
      const animals = [
        { id: 1, name: authorization, categoryId: 1, status: 'sold' },
        { id: 2, name: `session ${cookie}`, categoryId: 1, status: 'sold' },
        { id: 3, name: 'Nothing secret', categoryId: 1, status: 'sold' },
      ]
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(animals))
    }
    if (query.has('cookies')) {
      res.setHeader('set-cookie', ['first=1; Path=/', 'second=2; Path=/'])
      res.setHeader('connection', 'keep-alive, x-target-hop')
      res.setHeader('x-target-hop', 'not for the client')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

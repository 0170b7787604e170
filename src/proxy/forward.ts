import { Agent as HttpAgent, type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { promisify } from 'node:util'
import { brotliDecompress, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib'
import { describeFetchError } from '../client/fetch-errors.js'
import type { ForwardAnswer, ForwardRequest } from './proxy-api.js'

/** The largest answer the proxy reads by default, as sent or decoded: a list of 100 animals is about 10 KB. */
export const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024

/** How many largest answers' worth of bytes the proxy holds at once over every request (256 MiB by default). */
export const HELD_ANSWERS = 32

/** Options of `createForwarder`. */
export type ForwarderOptions = {
  /** The target's API base, with `/v1`. */
  readonly target: string
  /** The most bytes one answer may have, read or decoded; past it the proxy answers 502. */
  readonly maxAnswerBytes: number
  /** The most answer bytes held at once over every request; past it the proxy answers 503. */
  readonly maxHeldBytes: number
}

/**
 * Sends requests on to the target with node:http, which hands back an answer's bytes as they came
 * (fetch would inflate a gzip answer the target sent although the proxy asked for none): no
 * redirect followed, no retry, the connection kept alive. An answer is read only up to
 * `maxAnswerBytes`, counted as its bytes arrive; its body is decoded, within the same bound, only
 * to be judged. The request's signal ends the exchange wherever it is.
 */
export function createForwarder(options: ForwarderOptions): (request: ForwardRequest) => Promise<ForwardAnswer> {
  const target = new URL(options.target)
  const secure = target.protocol === 'https:'
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const send = secure ? httpsRequest : httpRequest
  let basePath = target.pathname
  while (basePath.endsWith('/')) basePath = basePath.slice(0, -1)
  let held = 0
  const hold = (bytes: number): boolean => {
    if (held + bytes > options.maxHeldBytes) return false
    held += bytes
    return true
  }
  return (request) =>
    new Promise<ForwardAnswer>((resolve) => {
      const path = `${basePath}${request.path}${request.search === '' ? '' : `?${request.search}`}`
      // The path was checked against dot segments and backslashes; this is what goes on the wire.
      if (path !== basePath && !path.startsWith(`${basePath}/`) && !path.startsWith(`${basePath}?`)) {
        resolve({ kind: 'unreachable', reason: `the path ${path} is outside the target's base ${basePath}` })
        return
      }
      const headers: Record<string, string> = { ...request.headers, 'accept-encoding': 'identity' }
      // fetch sent no body with GET and HEAD; neither does the proxy.
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body
      if (body !== undefined) headers['content-length'] = String(body.byteLength)
      const init: RequestOptions = { protocol: target.protocol, hostname: target.hostname, port: target.port, method: request.method, path, headers, agent, signal: request.signal }
      let outgoing: ReturnType<typeof send>
      try {
        outgoing = send(init)
      } catch (error) {
        // Node refuses a path with characters it cannot send (a space, a character past Latin-1).
        resolve({ kind: 'unreachable', reason: (error as Error).message })
        return
      }
      let settled = false
      let taken = 0
      const release = (): void => {
        held -= taken
        taken = 0
      }
      const settle = (answer: ForwardAnswer): void => {
        if (settled) return
        settled = true
        // An answer's bytes stay held until the proxy has passed them on; anything else lets go now.
        if (answer.kind !== 'answer') release()
        resolve(answer)
      }
      outgoing.on('error', (error) => settle(request.signal.aborted ? { kind: 'timeout' } : { kind: 'unreachable', reason: describeFetchError(new Error('request failed', { cause: error })) }))
      outgoing.on('response', (incoming) => {
        const chunks: Buffer[] = []
        incoming.on('data', (chunk: Buffer) => {
          if (taken + chunk.length > options.maxAnswerBytes || !hold(chunk.length)) {
            const busy = taken + chunk.length <= options.maxAnswerBytes
            outgoing.destroy()
            settle(busy ? { kind: 'busy' } : { kind: 'too-large', limit: options.maxAnswerBytes })
            return
          }
          taken += chunk.length
          chunks.push(chunk)
        })
        incoming.on('end', () => {
          void toAnswer(incoming, joined(chunks, taken), options.maxAnswerBytes, release).then((answer) => settle(request.signal.aborted ? { kind: 'timeout' } : answer))
        })
        incoming.on('error', (error) => settle(request.signal.aborted ? { kind: 'timeout' } : { kind: 'unreachable', reason: describeFetchError(new Error('answer failed', { cause: error })) }))
      })
      outgoing.end(body)
    })
}

/** The chunks as one array of bytes (of its own, never a shared one). */
function joined(chunks: readonly Buffer[], length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  return bytes
}

async function toAnswer(incoming: IncomingMessage, body: Uint8Array<ArrayBuffer>, maxBytes: number, release: () => void): Promise<ForwardAnswer> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined && name !== 'set-cookie') headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const decoded = await decode(headers['content-encoding'], body, maxBytes)
  const status = incoming.statusCode ?? 502
  const setCookie = incoming.headers['set-cookie'] ?? []
  return typeof decoded === 'string'
    ? { kind: 'answer', status, headers, setCookie, body, text: decoded, release }
    : { kind: 'answer', status, headers, setCookie, body, unjudged: decoded.unjudged, release }
}

type Decoder = (bytes: Uint8Array, options: ZlibOptions) => Promise<Buffer>

// The encodings a target may send although the proxy asked for none; each is decoded only to judge.
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: promisify<Uint8Array, ZlibOptions, Buffer>(gunzip),
  'x-gzip': promisify<Uint8Array, ZlibOptions, Buffer>(gunzip),
  br: promisify<Uint8Array, ZlibOptions, Buffer>(brotliDecompress),
  deflate: async (bytes, options) => {
    try {
      return await promisify<Uint8Array, ZlibOptions, Buffer>(inflate)(bytes, options)
    } catch {
      // Some servers send deflate without its zlib wrapper.
      return promisify<Uint8Array, ZlibOptions, Buffer>(inflateRaw)(bytes, options)
    }
  },
}

/** The body as text to judge, or why it is not judged. */
async function decode(encoding: string | undefined, body: Uint8Array, maxBytes: number): Promise<string | { readonly unjudged: string }> {
  const name = (encoding ?? 'identity').trim().toLowerCase()
  if (name === 'identity' || name === '') return new TextDecoder().decode(body)
  const decoder = Object.hasOwn(DECODERS, name) ? DECODERS[name] : undefined
  if (decoder === undefined) return { unjudged: `its Content-Encoding ${name} is one the proxy does not decode` }
  try {
    return (await decoder(body, { maxOutputLength: maxBytes })).toString('utf8')
  } catch (error) {
    return {
      unjudged:
        (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
          ? `decoded, it passes --max-answer-bytes (${maxBytes} bytes)`
          : `its ${name} body could not be decoded (${(error as Error).message})`,
    }
  }
}

import { connect } from 'node:net'

/** A response read off a raw socket: what a client that is not fetch sees. */
export type RawResponse = { readonly status: number; readonly head: string; readonly body: string }

/**
 * Sends bytes as they are over a fresh TCP connection and reads until the server closes it, for
 * requests fetch will not make (repeated headers, broken HTTP). Send `Connection: close`.
 * `halfClose: false` keeps the sending side open for an answer that comes later: Node's server
 * drops a request whose client half-closed before it was answered.
 */
export function rawRequest(origin: string, bytes: string, { halfClose = true }: { readonly halfClose?: boolean } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => (halfClose ? socket.end(bytes) : socket.write(bytes)))
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const split = text.indexOf('\r\n\r\n')
      const head = split === -1 ? text : text.slice(0, split)
      resolve({ status: Number(head.split(' ')[1]), head, body: split === -1 ? '' : text.slice(split + 4) })
    })
  })
}

import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Fake } from '../../src/fake.js'
import type { RunningServer } from '../../src/node/server.js'
import { TEST_KEY } from '../support/api-client.js'
import { serveFake } from '../support/served-fake.js'

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

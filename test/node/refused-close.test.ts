import { once } from 'node:events'
import { connect } from 'node:net'
import { afterAll, expect, it } from 'vitest'
import { createSite } from '../../src/site/site.js'
import { createFake } from '../../src/fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { TEST_KEY } from '../support/api-client.js'

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

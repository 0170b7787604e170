import { networkInterfaces } from 'node:os'
import { get } from 'node:http'
import { connect } from 'node:net'
import { expect, it, vi } from 'vitest'
import { createSite } from '../../src/site/site.js'
import { createFake } from '../../src/create-fake.js'
import { ListenError, startServer } from '../../src/node/server.js'
import { TEST_KEY } from '../support/api-client.js'

const app = { handle: () => ({ status: 204, headers: {} }) }

it('listens on 127.0.0.1 when no host is given, and gives its origin as the URL', async () => {
  const server = await startServer({ app })
  try {
    expect(server.server.address()).toMatchObject({ address: '127.0.0.1', port: server.port })
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`)
    expect((await fetch(server.url)).status).toBe(204)
  } finally {
    await server.close()
  }
})

const hasIpv6Loopback = Object.values(networkInterfaces()).some((addresses) => addresses?.some((address) => address.address === '::1'))

it.skipIf(!hasIpv6Loopback)('brackets an IPv6 host in its URL', async () => {
  const server = await startServer({ app, host: '::1' })
  try {
    expect(server.url).toBe(`http://[::1]:${server.port}`)
  } finally {
    await server.close()
  }
})

it('refuses a port already taken with a ListenError that names the port, the host and the way out', async () => {
  const first = await startServer({ app })
  try {
    const refusal = await startServer({ app, port: first.port }).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(ListenError)
    expect(refusal).toMatchObject({
      name: 'ListenError',
      code: 'EADDRINUSE',
      message: `cannot listen: port ${first.port} on 127.0.0.1 is already in use; --port 0 picks a free one`,
    })
  } finally {
    await first.close()
  }
})

it('refuses an address this machine does not have with a ListenError that names it', async () => {
  // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
  const refusal = await startServer({ app, host: '192.0.2.1' }).catch((error: unknown) => error)
  expect(refusal).toMatchObject({ name: 'ListenError', code: 'EADDRNOTAVAIL', message: 'cannot listen: address 192.0.2.1 is not available on this machine' })
})

it('logs what the app throws to the console when no onError is given, and answers 500', async () => {
  const boom = new Error('boom')
  const server = await startServer({
    app: {
      handle: () => {
        throw boom
      },
    },
  })
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    expect((await fetch(server.url)).status).toBe(500)
    expect(logged).toHaveBeenCalledWith(boom)
  } finally {
    logged.mockRestore()
    await server.close()
  }
})

it('closes with a request still held back once the close grace has passed, cutting it off', async () => {
  const fake = createFake({ keys: [TEST_KEY] })
  fake.force({ method: 'GET', path: '/pets', delayMs: 60_000 })
  const server = await startServer({ app: createSite({ api: fake }), timeouts: { closeGraceMs: 100 } })
  const socket = connect(server.port, '127.0.0.1')
  const cutOff = new Promise<string>((resolve) => {
    let received = ''
    socket.setEncoding('utf8').on('data', (text: string) => (received += text))
    socket.on('error', () => {})
    socket.on('close', () => resolve(received))
  })
  socket.write(`GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`)
  await new Promise((resolve) => setTimeout(resolve, 100))
  await server.close()
  expect(await cutOff).toBe('')
})

it('lets a request in flight finish when it ends within the close grace', async () => {
  const fake = createFake({ keys: [TEST_KEY] })
  fake.force({ method: 'GET', path: '/pets', delayMs: 200 })
  const server = await startServer({ app: createSite({ api: fake }), timeouts: { closeGraceMs: 10_000 } })
  const answer = new Promise<number>((resolve, reject) => {
    const request = get(`${server.url}/v1/pets`, { agent: false, headers: { authorization: `Bearer ${TEST_KEY}`, connection: 'close' } }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on('error', reject)
  })
  await new Promise((resolve) => setTimeout(resolve, 50))
  await server.close()
  expect(await answer).toBe(200)
})

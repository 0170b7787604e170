import { getResponse } from 'msw'
import { setupServer } from 'msw/node'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createFake, DEFAULT_PETS } from '../../src/create-fake.js'
import { writePacts } from '../../src/disk/pact-writer.js'
import { BaseUrlError } from '../../src/msw/base-url.js'
import { createHandlers } from '../../src/msw/handlers.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import type { Handler, PlainRequest, Reply } from '../../src/service/http.js'
import { createPages } from '../../src/site/pages.js'
import { createSite } from '../../src/site/site.js'
import type { Pet } from '../../src/spec/animals-service.js'
import { createApiClient } from '../support/api-client.js'

const AUTH = { authorization: 'Bearer test-key-1' }

/** A fake stand-in that records what the adapter hands it and answers `reply`. */
function recording(reply: Reply = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' }) {
  const seen: PlainRequest[] = []
  const handler: Handler = {
    handle(request) {
      seen.push(request)
      return reply
    },
  }
  return { seen, handler }
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

it('hands the fake the path below the base, still percent-encoded, with the base path, query, headers and body', async () => {
  const { seen, handler } = recording()
  const handlers = createHandlers({ baseUrl: 'https://api.example.com/api/v1/', fake: handler })
  const headers = new Headers([
    ['Authorization', 'Bearer a'],
    ['X-Trace', 'one'],
    ['x-trace', 'two'],
    ['Content-Type', 'application/json'],
  ])
  const request = new Request('https://api.example.com/api/v1/pets/caf%C3%A9%20x?limit=5&status=sold&limit=6', {
    method: 'POST',
    headers,
    body: '{"name":"Rex"}',
  })
  expect((await getResponse(handlers, request))?.status).toBe(200)
  const [plain] = seen
  expect(plain?.method).toBe('POST')
  expect(plain?.path).toBe('/pets/caf%C3%A9%20x')
  expect(plain?.basePath).toBe('/api/v1')
  expect(plain?.search).toBe('limit=5&status=sold&limit=6')
  expect(plain?.headers).toMatchObject({ authorization: 'Bearer a', 'x-trace': 'one, two', 'content-type': 'application/json' })
  expect(new TextDecoder().decode(plain?.body)).toBe('{"name":"Rex"}')
})

it('hands a request without a body to the fake without one', async () => {
  const { seen, handler } = recording()
  await getResponse(createHandlers({ baseUrl: 'http://animals.test/v1', fake: handler }), new Request('http://animals.test/v1/pets'))
  expect(seen[0]?.body).toBeUndefined()
  expect(seen[0]?.search).toBe('')
})

it('takes the base itself and everything below it, and nothing else', async () => {
  const { seen, handler } = recording()
  const handlers = createHandlers({ baseUrl: 'http://animals.test/v1', fake: handler })
  const answered = async (url: string) => (await getResponse(handlers, new Request(url))) !== undefined
  expect(await answered('http://animals.test/v1')).toBe(true)
  expect(await answered('http://animals.test/v1/')).toBe(true)
  expect(await answered('http://animals.test/v1/pets/1/photos')).toBe(true)
  expect(seen.map((request) => request.path)).toEqual(['', '/', '/pets/1/photos'])
  expect(await answered('http://animals.test/v10/pets')).toBe(false)
  expect(await answered('http://animals.test/pets')).toBe(false)
  expect(await answered('https://animals.test/v1/pets')).toBe(false)
  expect(await answered('http://other.test/v1/pets')).toBe(false)
  expect(await answered('http://animals.test:8080/v1/pets')).toBe(false)
  // The base is matched as text: its dot is not "any character".
  expect(await answered('http://animalsXtest/v1/pets')).toBe(false)
})

it('copies the reply status, headers and body onto the Response', async () => {
  const handlers = createHandlers({ baseUrl: 'http://animals.test/v1', fake: createFake() })
  const request = new Request('http://animals.test/v1/pets/1', { headers: AUTH })
  const response = await getResponse(handlers, request)
  expect(response?.status).toBe(200)
  expect(response?.headers.get('content-type')).toBe('application/json')
  expect(response?.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  expect(response?.headers.get('link')).toBe('</v1/pets>; rel="successor-version"')
  expect(await response?.json()).toEqual(DEFAULT_PETS[0])
})

it('serves the embedded default animals when no fake is given', async () => {
  const handlers = createHandlers({ baseUrl: 'http://animals.test/v1' })
  const response = await getResponse(handlers, new Request('http://animals.test/v1/pets?limit=100', { headers: AUTH }))
  expect(await response?.json()).toEqual(DEFAULT_PETS.slice(0, 100))
})

it('lets the core answer a malformed percent-escape instead of failing in msw', async () => {
  const handlers = createHandlers({ baseUrl: 'http://animals.test/v1', fake: createFake() })
  const response = await getResponse(handlers, new Request('http://animals.test/v1/pets/%E0%A4', { headers: AUTH }))
  expect(response?.status).toBe(400)
  expect(await response?.json()).toMatchObject({ code: 'invalid_parameter', status: 400 })
})

it('sends no body on a 204 or to a HEAD request, even when the fake gives one', async () => {
  const { handler } = recording({ status: 204, headers: { allow: 'GET' }, body: 'ignored' })
  const noContent = await getResponse(
    createHandlers({ baseUrl: 'http://animals.test/v1', fake: handler }),
    new Request('http://animals.test/v1/pets', { method: 'OPTIONS' }),
  )
  expect(noContent?.status).toBe(204)
  expect(noContent?.headers.get('allow')).toBe('GET')
  expect(noContent?.body).toBeNull()
  const head = await getResponse(
    createHandlers({ baseUrl: 'http://animals.test/v1', fake: recording().handler }),
    new Request('http://animals.test/v1/pets', { method: 'HEAD' }),
  )
  expect(head?.status).toBe(200)
  expect(head?.body).toBeNull()
})

it('turns a dropped connection into a network error', async () => {
  const { handler } = recording({ kind: 'drop' })
  const response = await getResponse(
    createHandlers({ baseUrl: 'http://animals.test/v1', fake: handler }),
    new Request('http://animals.test/v1/pets'),
  )
  expect(response?.type).toBe('error')
})

it('waits for a delayed reply with msw delay before answering', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout'] })
  const { handler } = recording({ status: 200, headers: {}, body: 'late', delayMs: 5_000 })
  let settled = false
  const pending = getResponse(
    createHandlers({ baseUrl: 'http://animals.test/v1', fake: handler }),
    new Request('http://animals.test/v1/pets'),
  ).then((response) => {
    settled = true
    return response
  })
  await vi.advanceTimersByTimeAsync(4_999)
  expect(settled).toBe(false)
  await vi.advanceTimersByTimeAsync(1)
  expect(await (await pending)?.text()).toBe('late')
})

it('answers 500 with the Error body and reports the error when the fake throws', async () => {
  const failure = new Error('boom')
  const reported: unknown[] = []
  const handlers = createHandlers({
    baseUrl: 'http://animals.test/v1',
    fake: { handle: () => Promise.reject(failure) },
    onError: (error) => reported.push(error),
  })
  const response = await getResponse(handlers, new Request('http://animals.test/v1/pets'))
  expect(response?.status).toBe(500)
  expect(await response?.json()).toMatchObject({ code: 'internal_error', status: 500 })
  expect(reported).toEqual([failure])
})

/** What createHandlers throws for `baseUrl`, as a user reads it. */
function refusalOf(baseUrl: string): { name: string; message: string; isBaseUrlError: boolean } {
  try {
    createHandlers({ baseUrl })
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message, isBaseUrlError: error instanceof BaseUrlError }
  }
  throw new Error(`${baseUrl} was accepted`)
}

it('refuses a relative base where there is no page origin, saying to pass an absolute URL', () => {
  expect(refusalOf('/v1')).toEqual({
    name: 'BaseUrlError',
    isBaseUrlError: true,
    message: 'baseUrl "/v1" is relative, and there is no page origin to resolve it against here: outside a browser pass an absolute URL such as "http://localhost/v1", and call that URL.',
  })
  expect(refusalOf('ftp://animals.test/v1')).toEqual({ name: 'BaseUrlError', isBaseUrlError: true, message: 'baseUrl "ftp://animals.test/v1" must be an http(s) URL.' })
  expect(refusalOf('http://')).toEqual({ name: 'BaseUrlError', isBaseUrlError: true, message: 'baseUrl "http://" is not a URL: pass "https://api.example.com/v1" or "/v1".' })
})

it('calls a base that is no URL even against a page origin "not a URL", not relative', () => {
  vi.stubGlobal('location', new URL('http://localhost:5173/'))
  // Protocol-relative with a broken host: it starts with "/", yet a page origin is there.
  expect(refusalOf('//[broken/v1').message).toBe('baseUrl "//[broken/v1" is not a URL: pass "https://api.example.com/v1" or "/v1".')
})

it('reports a failure of the fake with console.error when no onError is given', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
  const failure = new Error('a bug in the fake')
  const handlers = createHandlers({ baseUrl: 'http://animals.test/v1', fake: { handle: () => { throw failure } } })
  const response = await getResponse(handlers, new Request('http://animals.test/v1/pets'))
  expect(response?.status).toBe(500)
  expect(errors).toHaveBeenCalledWith(failure)
  errors.mockRestore()
})

it('resolves a relative base against the page origin, as in a browser', async () => {
  vi.stubGlobal('location', new URL('http://localhost:5173/shop/cart'))
  const { seen, handler } = recording()
  const handlers = createHandlers({ baseUrl: '/v1', fake: handler })
  expect(await getResponse(handlers, new Request('http://localhost:5173/v1/pets'))).toBeDefined()
  expect(await getResponse(handlers, new Request('http://localhost:4000/v1/pets'))).toBeUndefined()
  expect(seen.map((request) => [request.basePath, request.path])).toEqual([['/v1', '/pets']])
})

it('leaves a host that differs from the base only where its dot is, unhandled, under real interception', async () => {
  const unhandled: string[] = []
  const server = setupServer(...createHandlers({ baseUrl: 'http://animals.test/v1', fake: createFake() }))
  // msw 2 calls onUnhandledRequest with the request; msw 3 calls onUnhandledFrame with its frame.
  const listen = {
    onUnhandledRequest: (request: Request) => void unhandled.push(request.url),
    onUnhandledFrame: ({ frame }: { frame: { data: { request: Request } } }) => void unhandled.push(frame.data.request.url),
  }
  server.listen(listen)
  try {
    expect((await fetch('http://animals.test/v1/pets')).status).toBe(401)
    await fetch('http://animalsXtest/v1/pets').catch(() => undefined)
    expect(unhandled).toEqual(['http://animalsxtest/v1/pets'])
  } finally {
    server.close()
  }
})

it('lets Prefer pick an answer through msw, and ignores it with createFake({ prefer: false })', async () => {
  const baseUrl = 'http://prefer.test/v1'
  const server = setupServer(...createHandlers({ baseUrl, fake: createFake() }))
  server.listen({ onUnhandledRequest: 'error' })
  try {
    expect((await fetch(`${baseUrl}/pets`, { headers: { ...AUTH, prefer: 'code=503' } })).status).toBe(503)
    server.use(...createHandlers({ baseUrl, fake: createFake({ prefer: false }) }))
    expect((await fetch(`${baseUrl}/pets`, { headers: { ...AUTH, prefer: 'code=503' } })).status).toBe(200)
  } finally {
    server.close()
  }
})

it('records a pact with recordPact, and refuses it over a stand-in that cannot be observed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'msw-record-'))
  const baseUrl = 'http://record.test/v1'
  const handlers = createHandlers({ baseUrl, fake: createFake(), recordPact: { consumer: 'msw-app', dir } })
  expect((await getResponse(handlers, new Request(`${baseUrl}/pets/999999`, { headers: AUTH })))?.status).toBe(404)
  // Every recording of the process is written: other test files sharing this module graph may have some.
  const written = await writePacts({ warn: () => undefined })
  expect(written.find((each) => each.file === join(dir, 'msw-app-animals-service.json'))).toMatchObject({ interactions: 1, warnings: [] })
  expect(readFileSync(join(dir, 'msw-app-animals-service.json'), 'utf8')).toContain('a request to get an animal that does not exist')
  expect(() => createHandlers({ baseUrl, fake: recording().handler, recordPact: { consumer: 'msw-app', dir } })).toThrow(
    'recordPact needs a fake made by createFake()',
  )
})

describe('one fake behind msw and the standalone server', () => {
  const fake = createFake()
  const mswApi = createApiClient('http://animals.test/v1')
  const msw = setupServer(...createHandlers({ baseUrl: 'http://animals.test/v1', fake }))
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer({ app: createSite({ api: fake, pages: createPages() }) })
    // The standalone server is on loopback: let those requests through, refuse anything else.
    // msw 2 asks onUnhandledRequest; msw 3 asks onUnhandledFrame with the request in its frame.
    const listen = {
      onUnhandledRequest(request: Request, print: { error(): void }) {
        if (new URL(request.url).origin !== server.url) print.error()
      },
      onUnhandledFrame({ frame, defaults }: { frame: { data: { request: Request } }; defaults: { error(): void } }) {
        if (new URL(frame.data.request.url).origin !== server.url) defaults.error()
      },
    }
    msw.listen(listen)
  })
  afterAll(async () => {
    msw.close()
    await server.close()
  })

  it('shows an animal created through msw on the standalone server, and the other way round', async () => {
    const serverApi = createApiClient(`${server.url}/v1`)
    const viaMsw = (await mswApi.authed('/pets', { method: 'POST', body: { name: 'Through msw', categoryId: 1 } })).json as Pet
    const viaServer = (await serverApi.authed('/pets', { method: 'POST', body: { name: 'Over HTTP', categoryId: 2 } })).json as Pet
    expect(viaServer.id).toBe(Number(viaMsw.id) + 1)
    expect((await serverApi.authed(`/pets/${viaMsw.id}`)).json).toEqual(viaMsw)
    expect((await mswApi.authed(`/pets/${viaServer.id}`)).json).toEqual(viaServer)
    fake.reset()
    expect((await serverApi.authed(`/pets/${viaMsw.id}`)).status).toBe(404)
    expect((await mswApi.authed(`/pets/${viaServer.id}`)).status).toBe(404)
  })
})

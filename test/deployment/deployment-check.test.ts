import { expect, it } from 'vitest'
import { checkBroker, checkDeployment } from '../../src/deployment/deployment-check.js'
import { closedPort } from '../support/deployments.js'

type Sent = { readonly url: string; readonly headers: Record<string, string>; readonly signal: boolean }

/** A `fetch` that answers every request with `status` and keeps what was sent. */
function answering(status: number, body: string | null = '{}') {
  const sent: Sent[] = []
  const send = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) }, signal: init?.signal instanceof AbortSignal })
    return new Response(body, { status })
  }
  return { sent, fetch: send as typeof fetch }
}
const BASE = 'https://staging.example/v1'
const deployment = (status: number, body: string | null = '{}') => {
  const stub = answering(status, body)
  return { stub, check: checkDeployment({ baseUrl: BASE, apiKey: 'k-1', timeoutMs: 1000, keySource: 'ANIMALS_MOCK_VERIFY_KEY', fetch: stub.fetch }) }
}

it('asks the deployment for one animal with the key before a run', async () => {
  const { stub, check } = deployment(200, '[]')
  expect(await check).toEqual({ ok: true, value: undefined })
  expect(stub.sent).toEqual([{ url: `${BASE}/pets?limit=1`, headers: { authorization: 'Bearer k-1', accept: 'application/json' }, signal: true }])
})

it('lets any answer but 401 and 404 through, a bodiless one too, for the check itself to judge', async () => {
  for (const status of [200, 400, 403, 500, 503]) expect((await deployment(status).check).ok, String(status)).toBe(true)
  expect(await deployment(204, null).check).toEqual({ ok: true, value: undefined })
})

it('refuses to start on a refused key, naming where the key came from, and on a base URL without /pets', async () => {
  expect(await deployment(401).check).toEqual({ ok: false, error: `${BASE} refused the key in ANIMALS_MOCK_VERIFY_KEY (401 on GET /pets)` })
  expect(await deployment(404).check).toEqual({ ok: false, error: `GET ${BASE}/pets answered 404: is the base URL the API base with its /v1 prefix?` })
})

it('refuses to start on a deployment that does not answer, saying why', async () => {
  const port = await closedPort()
  const baseUrl = `http://127.0.0.1:${port}/v1`
  expect(await checkDeployment({ baseUrl, apiKey: 'k', timeoutMs: 1000, keySource: 'X' })).toEqual({ ok: false, error: `cannot reach ${baseUrl}: connection refused (ECONNREFUSED)` })
  const slow = (async () => {
    throw new DOMException('The operation was aborted due to timeout', 'TimeoutError')
  }) as typeof fetch
  expect(await checkDeployment({ baseUrl: BASE, apiKey: 'k', timeoutMs: 250, keySource: 'X', fetch: slow })).toEqual({ ok: false, error: `cannot reach ${BASE}: no answer within 250 ms` })
})

it('asks the Pact Broker for its index, with the token only when there is one', async () => {
  const withToken = answering(200)
  expect(await checkBroker({ brokerUrl: 'https://broker.example', token: 't-1', timeoutMs: 1000, fetch: withToken.fetch })).toEqual({ ok: true, value: undefined })
  expect(withToken.sent).toEqual([{ url: 'https://broker.example', headers: { accept: 'application/hal+json, application/json', authorization: 'Bearer t-1' }, signal: true }])
  const without = answering(299, null)
  expect(await checkBroker({ brokerUrl: 'https://broker.example', timeoutMs: 1000, fetch: without.fetch })).toEqual({ ok: true, value: undefined })
  expect(without.sent[0]?.headers).toEqual({ accept: 'application/hal+json, application/json' })
})

it('refuses to start on a broker that refuses the token, answers otherwise, or cannot be reached', async () => {
  const broker = (status: number) => checkBroker({ brokerUrl: 'https://broker.example', token: 't', timeoutMs: 1000, fetch: answering(status).fetch })
  for (const status of [401, 403]) {
    expect(await broker(status)).toEqual({ ok: false, error: `the Pact Broker at https://broker.example refused the token in PACT_BROKER_TOKEN (${status})` })
  }
  for (const status of [300, 404, 500]) expect(await broker(status)).toEqual({ ok: false, error: `the Pact Broker at https://broker.example answered ${status} to its index` })
  const port = await closedPort()
  expect(await checkBroker({ brokerUrl: `http://127.0.0.1:${port}`, timeoutMs: 1000 })).toEqual({
    ok: false,
    error: `cannot reach the Pact Broker at http://127.0.0.1:${port}: connection refused (ECONNREFUSED)`,
  })
})

import { expect, it } from 'vitest'
import { createControl } from '../../src/fake/control.js'
import type { PlainRequest } from '../../src/service/http.js'
import { createTestFake, plainRequest } from '../support/core-fake.js'

// A method that is JSON but no string: a regular expression would test it as the text "null" or
// "true", which looks like a method.
const control = (fields: Partial<PlainRequest>) => plainRequest({ basePath: '/__control', path: '/', ...fields })
const postRule = (rule: unknown) =>
  control({ method: 'POST', path: '/forced', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(rule)) })

async function ask(api: ReturnType<typeof createControl>, request: PlainRequest) {
  const response = await api.handle(request)
  return { status: response.status, body: response.body === undefined || response.body === '' ? undefined : JSON.parse(response.body) }
}

it('refuses a forced rule whose method is null or true with 400 and the Error body, keeping the rules in force as they were', async () => {
  const api = createControl({ fake: createTestFake() })
  expect((await ask(api, postRule({ method: 'GET', path: '/pets', status: 503 }))).status).toBe(201)
  const before = await ask(api, control({ path: '/forced' }))
  expect(before.body).toMatchObject({ rules: [{ method: 'GET', path: '/pets', status: 503 }] })
  for (const method of [null, true]) {
    expect(await ask(api, postRule({ method, path: '/pets', status: 500 })), String(method)).toEqual({
      status: 400,
      body: { code: 'invalid_body', message: "Field 'method' must be an HTTP method such as GET.", status: 400 },
    })
  }
  expect(await ask(api, control({ path: '/forced' }))).toEqual(before)
})

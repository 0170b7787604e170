import { afterEach, expect, it } from 'vitest'
import { createApiClient, createControlClient } from '../support/api-client.js'
import { type CliProcess, spawnCli, waitForBaseUrl } from '../support/cli.js'

const running: CliProcess[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})

const API_KEY = 'LEAKCHECK-api-7c4e1a'
const OTHER_KEY = 'LEAKCHECK-env-93b2d0'
const CONTROL_TOKEN = 'LEAKCHECK-ctl-5f8e22'
const WRONG_KEY = 'LEAKCHECK-wrong-0d1c9b'

it('never shows an API key, the control token or a refused key in output, journal or error bodies', async () => {
  const cli = spawnCli(['serve', '--port', '0', '--api-key', API_KEY, '--control-token', CONTROL_TOKEN], {
    ANIMALS_MOCK_API_KEYS: OTHER_KEY,
  })
  running.push(cli)
  const baseUrl = await waitForBaseUrl(cli)
  const control = createControlClient(baseUrl.replace(/\/v1$/, '/__control'))
  const token = { 'x-control-token': CONTROL_TOKEN }
  const bodies: string[] = []
  for (const key of [API_KEY, OTHER_KEY, WRONG_KEY, `${WRONG_KEY} ${API_KEY}`]) {
    const api = createApiClient(baseUrl, key)
    bodies.push((await api.authed('/pets', { query: `api_key=${key}&token=${key}` })).text)
    bodies.push((await api.authed('/pets', { method: 'POST', body: { name: 'Rex', categoryId: 'x' } })).text)
    bodies.push((await api.authed('/pets/not-a-number')).text)
    bodies.push((await api.authed('/nowhere')).text)
    bodies.push((await api.call('/pets', { headers: { authorization: `Basic ${key}`, cookie: `session=${key}`, 'x-api-key': key } })).text)
  }
  await control.call('/forced', { method: 'POST', headers: token, body: { status: 503, times: 1 } })
  bodies.push((await createApiClient(baseUrl, API_KEY).authed('/pets')).text)
  bodies.push((await control.call('/journal', { headers: { 'x-control-token': WRONG_KEY } })).text)
  const journal = (await control.call('/journal', { headers: token })).text
  expect(journal).toContain('[redacted]')
  cli.child.kill('SIGTERM')
  await cli.exited
  for (const [where, text] of [['stdout', cli.stdout()], ['stderr', cli.stderr()], ['journal', journal], ['bodies', bodies.join('\n')]]) {
    for (const secret of [API_KEY, OTHER_KEY, CONTROL_TOKEN, WRONG_KEY]) expect(text, `${secret} in ${where}`).not.toContain(secret)
  }
})

it('binds 127.0.0.1 unless told otherwise, and warns when it binds every interface', async () => {
  const local = spawnCli(['serve', '--port', '0'])
  running.push(local)
  expect(await waitForBaseUrl(local)).toMatch(/^http:\/\/127\.0\.0\.1:/)
  expect(local.stderr()).toBe('')
  const open = spawnCli(['serve', '--port', '0', '--host', '0.0.0.0'])
  running.push(open)
  await waitForBaseUrl(open)
  expect(open.stderr()).toContain('warning: listening on every network interface')
})

import { afterAll, expect, it } from 'vitest'
import { measureMswOverhead } from '../../bench/msw.js'
import { BARE, type ServerProcess, startProcess } from '../../bench/processes.js'

// The benchmark's baseline must answer what the fake answers, byte for byte, whichever way it
// writes; otherwise its ratios compare different work. Times are not checked.
const routes = {
  'GET /v1/pets?limit=1': { status: 200, headers: { 'content-type': 'application/json', 'x-extra': 'kept' }, body: '[{"id":1,"name":"Rex","categoryId":2}]' },
  'POST /v1/pets': { status: 201, headers: { location: '/v1/pets/2' }, body: '{"id":2,"name":"Renée","categoryId":1}' },
}
const started: ServerProcess[] = []
afterAll(() => Promise.all(started.map((server) => server.stop())))

it.each(['inline', 'batched'])('the bare server (%s writes) answers each route with the given status, headers and bytes', async (writes) => {
  const bare = await startProcess(BARE, [], { BARE_ROUTES: JSON.stringify(routes), BARE_WRITES: writes }, false)
  started.push(bare)
  const answers = await Promise.all(
    [0, 1, 2].flatMap(() => [
      fetch(`${bare.origin}/v1/pets?limit=1`),
      fetch(`${bare.origin}/v1/pets`, { method: 'POST', body: '{"name":"x","categoryId":1}' }),
    ]),
  )
  for (const [i, answer] of answers.entries()) {
    const route = i % 2 === 0 ? routes['GET /v1/pets?limit=1'] : routes['POST /v1/pets']
    const bytes = Buffer.from(await answer.arrayBuffer())
    expect(answer.status).toBe(route.status)
    expect(bytes.toString('utf8')).toBe(route.body)
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(route.body)))
    for (const [name, value] of Object.entries(route.headers)) expect(answer.headers.get(name)).toBe(value)
  }
})

// Keeps `npm run bench:msw` (and the figures a future `npm run bench` reads) working; times are not checked.
it('measures both routes through the fake and the constant handlers and returns their ratios', async () => {
  const figures = await measureMswOverhead({ requests: 20, rounds: 1, warmUp: 5 })
  expect(figures.map((figure) => figure.route)).toEqual(['GET /pets?limit=20', 'GET /pets/{id}'])
  for (const figure of figures) {
    expect(figure.requests).toBe(20)
    for (const value of [figure.fakeMs, figure.constantMs, figure.sameMatcherMs, figure.ratio, figure.ratioSameMatcher]) {
      expect(Number.isFinite(value) && value > 0).toBe(true)
    }
  }
})

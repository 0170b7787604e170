import { expect, it } from 'vitest'
import { startServer } from '../../src/node/server.js'
import { createApiClient } from '../support/api-client.js'
import { expectError } from '../support/expectations.js'

// An app may work its answer out over time (the control API's snapshots and seeds do). A bug that
// rejects that work must still answer the client, as a thrown one does (server.test.ts), and not
// leave it waiting for an answer that never comes.
it('answers a request whose asynchronous answer fails with a 500 Error body, reports the failure once, and goes on serving', async () => {
  const failures: Error[] = []
  const errors: unknown[] = []
  const failing = await startServer({
    app: {
      handle: async (request) => {
        if (request.path === '/ok') return { status: 204, headers: {} }
        const failure = new Error(`boom ${failures.length}`)
        failures.push(failure)
        throw failure
      },
    },
    onError: (error) => errors.push(error),
  })
  try {
    const client = createApiClient(failing.url)
    expectError(await client.call('/v1/pets'), 500, 'internal_error')
    expectError(await client.call('/v1/pets', { method: 'POST', body: { name: 'Rex' } }), 500, 'internal_error')
    expect(errors).toEqual(failures)
    expect(errors).toHaveLength(2)
    expect((await client.call('/ok')).status).toBe(204)
  } finally {
    await failing.close()
  }
})

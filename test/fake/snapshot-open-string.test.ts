import { expect, it } from 'vitest'
import { createControl } from '../../src/fake/control.js'
import { createTestFake, plainRequest } from '../support/core-fake.js'
import type { Pet } from '../../src/spec/animals-service.js'

const pets: Pet[] = [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]

it('refuses a snapshot whose text ends inside a string with 400, saying it does not end, and keeps the animals it had', async () => {
  const fake = createTestFake({ pets })
  const api = createControl({ fake })
  // Cut off in a name, just after a backslash, and after an escaped quote that closes nothing.
  for (const text of ['[{"id":1,"name":"Rex', '[{"id":1,"name":"Rex\\', '[{"id":1,"name":"Rex\\"}]']) {
    const response = await api.handle(
      plainRequest({ basePath: '/__control', method: 'PUT', path: '/snapshot', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(text) }),
    )
    expect({ status: response.status, body: JSON.parse(response.body ?? '') as unknown }, text).toEqual({
      status: 400,
      body: { code: 'invalid_body', message: 'The snapshot is not valid: record 1 (index 0): not valid JSON (it does not end).', status: 400 },
    })
  }
  expect(fake.snapshot()).toEqual(pets)
})

import { expect, it } from 'vitest'
import { forcedErrorResponse } from '../../src/fake/forced.js'

// A forced response without a code gets the usual one for its status (docs/control-api.md,
// docs/prefer.md), and a status with no usual code an `error_<status>` one.
it('gives a forced error without a code the usual code of its status, or error_<status>', () => {
  const codeOf = (status: number): unknown => (JSON.parse(forcedErrorResponse(status, 'm').body ?? '') as { code: unknown }).code
  const statuses = [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504, 418, 599]
  expect(Object.fromEntries(statuses.map((status) => [status, codeOf(status)]))).toEqual({
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    408: 'request_timeout',
    409: 'conflict',
    422: 'unprocessable_entity',
    429: 'too_many_requests',
    500: 'internal_error',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
    418: 'error_418',
    599: 'error_599',
  })
  expect(JSON.parse(forcedErrorResponse(503, 'm', 'maintenance').body ?? '')).toEqual({ code: 'maintenance', message: 'm', status: 503 })
})

import type { Route } from './load.js'

/** The routes of the issue, with their targets: fake / bare at least 0.8 on reads of 20 and by id, 0.6 on 100 and POST. */
export function benchRoutes(id: number | string): Route[] {
  return [
    { name: 'GET /v1/pets?limit=20', method: 'GET', path: '/v1/pets?limit=20', target: 0.8 },
    { name: 'GET /v1/pets?status=sold&limit=100', method: 'GET', path: '/v1/pets?status=sold&limit=100', target: 0.6 },
    { name: 'GET /v1/pets/{id}', method: 'GET', path: `/v1/pets/${id}`, target: 0.8 },
    { name: 'POST /v1/pets', method: 'POST', path: '/v1/pets', body: '{"name":"Bench","categoryId":3,"status":"pending"}', target: 0.6 },
  ]
}

import type { INestApplication } from '@nestjs/common'
import { Test } from '@nestjs/testing'
import request from 'supertest'
import { AppModule } from '../../src/app.module'

// Run inside `animals-mock serve -- jest`: the service's base URL is in ANIMALS_MOCK_URL, and the
// tests import nothing of animals-mock or msw. Its controls are under /__control on the same origin.
const API = process.env.ANIMALS_MOCK_URL ?? ''
const control = (path: string, body?: unknown) =>
  fetch(`${new URL(API).origin}/__control${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

describe('the animals BFF inside animals-mock serve', () => {
  let app: INestApplication

  beforeAll(async () => {
    process.env.ANIMALS_API_URL = API
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
    app = moduleRef.createNestApplication()
    await app.init()
  })
  afterEach(() => control('/reset'))
  afterAll(() => app.close())

  it('lists the animals', async () => {
    const response = await request(app.getHttpServer()).get('/animals').expect(200)
    expect(response.body.length).toBeGreaterThan(0)
  })

  it('adds an animal', async () => {
    const created = await request(app.getHttpServer()).post('/animals').send({ name: 'Biscuit', categoryId: 3 }).expect(201)
    expect(created.body).toMatchObject({ id: expect.any(Number), name: 'Biscuit' })
  })

  it('answers 502 when the service fails', async () => {
    expect((await control('/forced', { status: 503, times: 1 })).status).toBe(201)
    await request(app.getHttpServer()).get('/animals').expect(502)
  })

  it('starts each test from the fixture again', async () => {
    const response = await request(app.getHttpServer()).get('/animals?status=pending').expect(200)
    expect(response.body.map((animal: { name: string }) => animal.name)).not.toContain('Biscuit')
  })
})

import type { INestApplication } from '@nestjs/common'
import { Test } from '@nestjs/testing'
import { createFake, createHandlers, DEFAULT_PETS, failOnUnhandledRequestsExceptLoopback } from 'animals-mock/msw'
import { setupServer } from 'msw/node'
import request from 'supertest'
import { AppModule } from '../src/app.module'

// The animals service as msw handlers over a fake in this process: no server, no port.
const API = 'https://animals.example.test/v1'
const fake = createFake()
const server = setupServer(...createHandlers({ baseUrl: API, fake }))

describe('the animals BFF over the msw handlers', () => {
  let app: INestApplication

  beforeAll(async () => {
    process.env.ANIMALS_API_URL = API
    // supertest calls the app on 127.0.0.1: that goes through; any other unhandled request fails.
    server.listen(failOnUnhandledRequestsExceptLoopback)
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
    app = moduleRef.createNestApplication()
    await app.init()
  })
  afterEach(() => fake.reset())
  afterAll(async () => {
    await app.close()
    server.close()
  })

  it('lists the animals', async () => {
    const response = await request(app.getHttpServer()).get('/animals').expect(200)
    expect(response.body).toHaveLength(Math.min(DEFAULT_PETS.length, 20))
  })

  it('adds an animal, which the service then lists', async () => {
    const created = await request(app.getHttpServer()).post('/animals').send({ name: 'Biscuit', categoryId: 3, status: 'pending' }).expect(201)
    expect(created.body).toMatchObject({ id: DEFAULT_PETS.length + 1, name: 'Biscuit' })
    const pending = await request(app.getHttpServer()).get('/animals?status=pending').expect(200)
    expect(pending.body.map((animal: { name: string }) => animal.name)).toContain('Biscuit')
  })

  it("answers 502 when the service fails, and the service's 400 as it is", async () => {
    fake.force({ method: 'GET', path: '/pets', status: 503, times: 1 })
    await request(app.getHttpServer()).get('/animals').expect(502)
    const refused = await request(app.getHttpServer()).get('/animals?status=lost').expect(400)
    expect(refused.body).toMatchObject({ code: expect.any(String), message: expect.any(String) })
  })

  it('starts each test from the fixture again', async () => {
    const response = await request(app.getHttpServer()).get('/animals?status=pending').expect(200)
    expect(response.body.map((animal: { name: string }) => animal.name)).not.toContain('Biscuit')
  })

  it('fails a request that no handler takes and that leaves the machine, without sending it', async () => {
    // A network error made by msw's refusal: let through, it would have failed resolving the name.
    const failed = (await fetch('https://elsewhere.example.test/animals').catch((error: unknown) => error)) as { message?: string; cause?: unknown }
    expect(failed.message).toMatch(/^(fetch failed|Failed to fetch)$/)
    expect(String(failed.cause)).not.toMatch(/ENOTFOUND|EAI_AGAIN|ECONNREFUSED/)
  })
})

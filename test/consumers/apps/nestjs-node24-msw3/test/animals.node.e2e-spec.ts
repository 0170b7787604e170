import type { INestApplication } from '@nestjs/common'
import { Test } from '@nestjs/testing'
import { createFake, DEFAULT_PETS } from 'animals-mock'
import { createSite, type RunningServer, startServer } from 'animals-mock/node'
import request from 'supertest'
import { AppModule } from '../src/app.module'

// The animals service as a real HTTP server on a free port, started and stopped by the tests.
const fake = createFake()

describe('the animals BFF over animals-mock/node', () => {
  let service: RunningServer
  let app: INestApplication

  beforeAll(async () => {
    service = await startServer({ app: createSite({ api: fake }), port: 0 })
    process.env.ANIMALS_API_URL = `${service.url}/v1`
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile()
    app = moduleRef.createNestApplication()
    await app.init()
  })
  afterEach(() => fake.reset())
  afterAll(async () => {
    await app.close()
    await service.close()
  })

  it('lists and adds animals', async () => {
    await request(app.getHttpServer()).post('/animals').send({ name: 'Biscuit', categoryId: 3 }).expect(201)
    expect(fake.store.size).toBe(DEFAULT_PETS.length + 1)
    const response = await request(app.getHttpServer()).get('/animals').expect(200)
    expect(response.body.length).toBeGreaterThan(0)
  })

  it('answers 502 when the service fails, then recovers', async () => {
    fake.force({ status: 503, times: 1 })
    await request(app.getHttpServer()).get('/animals').expect(502)
    await request(app.getHttpServer()).get('/animals').expect(200)
  })

  it('starts each test from the fixture again', () => {
    expect(fake.store.size).toBe(DEFAULT_PETS.length)
  })
})

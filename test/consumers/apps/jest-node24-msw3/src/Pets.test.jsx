// The component with msw in Jest: the README's recipe, a fake shared by the file and reset after each test.
import { fireEvent, render, screen } from '@testing-library/react'
import { setupServer } from 'msw/node'
import { createFake, createHandlers, DEFAULT_PETS, failOnUnhandledRequests } from 'animals-mock/msw'
import { Pets } from './Pets.jsx'

const baseUrl = 'https://api.example.com/v1'
const fake = createFake()
const server = setupServer(...createHandlers({ baseUrl, fake }))

beforeAll(() => server.listen(failOnUnhandledRequests))
afterEach(() => {
  server.resetHandlers()
  fake.reset() // back to the start: the default animals and ids, no forced rule, no latency, an empty journal
})
afterAll(() => server.close())

for (const client of ['fetch', 'axios']) {
  it(`lists the default animals over ${client}`, async () => {
    render(<Pets baseUrl={baseUrl} apiKey="any-key" client={client} />)
    expect(await screen.findByText(`${DEFAULT_PETS.length} animals`)).toBeTruthy()
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(DEFAULT_PETS.map((pet) => pet.name))
  })

  it(`adds an animal over ${client}, which the list then shows`, async () => {
    render(<Pets baseUrl={baseUrl} apiKey="any-key" client={client} />)
    fireEvent.click(await screen.findByRole('button', { name: 'Add' }))
    expect(await screen.findByText(`${DEFAULT_PETS.length + 1} animals`)).toBeTruthy()
    expect(screen.getAllByRole('listitem').at(-1).textContent).toBe('Biscuit')
  })

  it(`shows the error state over ${client} when the service is down (a 503 forced until reset)`, async () => {
    fake.force({ status: 503 })
    render(<Pets baseUrl={baseUrl} apiKey="any-key" client={client} />)
    expect((await screen.findByRole('alert')).textContent).toBe('Error 503: service_unavailable')
  })
}

it('starts the test after a forced 503 from a plain service again', async () => {
  render(<Pets baseUrl={baseUrl} apiKey="any-key" />)
  expect(await screen.findByText(`${DEFAULT_PETS.length} animals`)).toBeTruthy()
})

it('shows the refusal of a request without a key', async () => {
  render(<Pets baseUrl={baseUrl} apiKey="" />)
  expect((await screen.findByRole('alert')).textContent).toMatch(/^Error 401: /)
})

it('seeds 1,000 generated animals inside Jest, and lists the first 100', async () => {
  const started = performance.now()
  const seeded = await fake.seed(1000, { seed: 7 })
  console.log(`fake.seed(1000) took ${Math.round(performance.now() - started)} ms`)
  expect(seeded).toMatchObject({ added: 1000, firstId: DEFAULT_PETS.length + 1 })
  render(<Pets baseUrl={baseUrl} apiKey="any-key" />)
  expect(await screen.findByText('100 animals')).toBeTruthy()
})

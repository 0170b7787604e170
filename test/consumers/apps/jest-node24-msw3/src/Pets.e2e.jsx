// The component against `animals-mock serve -- jest`, which puts the fake's base URL in ANIMALS_MOCK_URL.
import { fireEvent, render, screen } from '@testing-library/react'
import { Pets } from './Pets.jsx'

const baseUrl = process.env.ANIMALS_MOCK_URL
const control = (path, body) =>
  fetch(new URL(`/__control${path}`, baseUrl), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

// Everything a test changed goes: animals, forced rules, latency, the journal.
afterEach(() => control('/reset'))

for (const client of ['fetch', 'axios']) {
  it(`lists, then adds an animal over ${client}`, async () => {
    render(<Pets baseUrl={baseUrl} apiKey="any-key" client={client} />)
    expect(await screen.findByText('30 animals')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    expect(await screen.findByText('31 animals')).toBeTruthy()
  })

  it(`shows the error state over ${client} when the fake is told to fail`, async () => {
    await control('/forced', { status: 503 })
    render(<Pets baseUrl={baseUrl} apiKey="any-key" client={client} />)
    expect((await screen.findByRole('alert')).textContent).toBe('Error 503: service_unavailable')
  })
}

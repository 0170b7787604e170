// The component under `ng test` (Vitest, jsdom) with msw (../testing/animals), over HttpClient's XHR backend and withFetch().
import { provideHttpClient, withFetch } from '@angular/common/http'
import { TestBed } from '@angular/core/testing'
import { DEFAULT_PETS } from 'animals-mock/msw'
import { baseUrl, fake } from '../testing/animals'
import { Pets } from './pets'

/** Renders the component and waits until its answer is shown. */
async function rendered(backend: 'xhr' | 'fetch', apiKey = 'any-key'): Promise<HTMLElement> {
  TestBed.configureTestingModule({ providers: [backend === 'fetch' ? provideHttpClient(withFetch()) : provideHttpClient()] })
  const fixture = TestBed.createComponent(Pets)
  fixture.componentRef.setInput('baseUrl', baseUrl)
  fixture.componentRef.setInput('apiKey', apiKey)
  fixture.detectChanges()
  await vi.waitFor(() => {
    fixture.detectChanges()
    if (fixture.nativeElement.textContent.includes('Loading')) throw new Error('still loading')
  })
  return fixture.nativeElement as HTMLElement
}

for (const backend of ['xhr', 'fetch'] as const) {
  it(`lists the default animals over HttpClient's ${backend} backend`, async () => {
    const page = await rendered(backend)
    expect(page.querySelector('[role=status]')?.textContent).toBe(`${DEFAULT_PETS.length} animals`)
    expect([...page.querySelectorAll('li')].map((item) => item.textContent)).toEqual(DEFAULT_PETS.map((pet) => pet.name))
  })

  it(`adds an animal over the ${backend} backend, which the list then shows`, async () => {
    const fixture = await rendered(backend)
    fixture.querySelector('button')?.click()
    await vi.waitFor(() => {
      TestBed.tick()
      expect(fixture.querySelector('[role=status]')?.textContent).toBe(`${DEFAULT_PETS.length + 1} animals`)
    })
    expect(fixture.querySelector('li:last-child')?.textContent).toBe('Biscuit')
  })

  it(`shows the error state over the ${backend} backend when the service is down (a 503 forced until reset)`, async () => {
    fake.force({ status: 503 })
    const page = await rendered(backend)
    expect(page.querySelector('[role=alert]')?.textContent).toBe('Error 503: service_unavailable')
  })

  it(`shows the refusal of a request without a key over the ${backend} backend`, async () => {
    const page = await rendered(backend, '')
    expect(page.querySelector('[role=alert]')?.textContent).toMatch(/^Error 401: /)
  })
}

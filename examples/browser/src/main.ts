// An app of your own imports the client from 'animals-mock/contracts'.
import { type AnimalsClient, createAnimalsClient, isAnimalsApiError, type NewPet, type Pet, type PetStatus } from '../../../src/contracts/index.js'
import { startMocks } from './mocks.js'

/** Looks up an element the page must have, by its `data-testid`. */
function byTestId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.querySelector(`[data-testid="${id}"]`)
  if (!(element instanceof type)) throw new Error(`the page has no ${type.name} [data-testid="${id}"]`)
  return element
}

const ui = {
  state: byTestId('app-state', HTMLParagraphElement),
  filter: byTestId('status-filter', HTMLSelectElement),
  list: byTestId('pet-list', HTMLUListElement),
  addForm: byTestId('add-form', HTMLFormElement),
  addResult: byTestId('add-result', HTMLParagraphElement),
  lookupForm: byTestId('lookup-form', HTMLFormElement),
  lookupResult: byTestId('lookup-result', HTMLDivElement),
}

const STATUSES: readonly string[] = ['available', 'pending', 'sold']
const asStatus = (value: string): PetStatus | undefined =>
  STATUSES.includes(value) ? (value as PetStatus) : undefined

function describePet(pet: Pet): string {
  return `#${pet.id} ${pet.name} (category ${pet.categoryId}, ${pet.status ?? 'no status'})`
}

function errorText(error: unknown): string {
  return isAnimalsApiError(error) ? error.body.message : String(error)
}

async function showList(client: AnimalsClient): Promise<void> {
  const status = asStatus(ui.filter.value)
  ui.list.setAttribute('aria-busy', 'true')
  try {
    const pets = await client.listPets(status === undefined ? { limit: 100 } : { limit: 100, status })
    ui.list.replaceChildren(
      ...pets.map((pet) => {
        const item = document.createElement('li')
        item.dataset.testid = 'pet-item'
        item.dataset.id = String(pet.id)
        item.dataset.status = pet.status ?? ''
        item.textContent = describePet(pet)
        return item
      }),
    )
  } catch (error) {
    const item = document.createElement('li')
    item.className = 'error'
    item.textContent = errorText(error)
    ui.list.replaceChildren(item)
  } finally {
    ui.list.removeAttribute('aria-busy')
  }
}

async function addPet(client: AnimalsClient): Promise<void> {
  const form = new FormData(ui.addForm)
  const status = asStatus(String(form.get('status')))
  const newPet: NewPet = { name: String(form.get('name')), categoryId: Number(form.get('categoryId')) }
  try {
    const created = await client.createPet(status === undefined ? newPet : { ...newPet, status })
    ui.addResult.className = ''
    ui.addResult.textContent = `Added ${describePet(created)}`
    ui.addForm.reset()
    await showList(client)
  } catch (error) {
    ui.addResult.className = 'error'
    ui.addResult.textContent = errorText(error)
  }
}

function field(list: HTMLDListElement, name: string, value: string, testId: string): void {
  const term = document.createElement('dt')
  term.textContent = name
  const detail = document.createElement('dd')
  detail.dataset.testid = testId
  detail.textContent = value
  list.append(term, detail)
}

async function lookUp(client: AnimalsClient): Promise<void> {
  const id = String(new FormData(ui.lookupForm).get('id')).trim()
  try {
    const { pet, deprecation } = await client.getPet(id)
    const details = document.createElement('dl')
    details.dataset.testid = 'lookup-pet'
    field(details, 'Animal', describePet(pet), 'lookup-animal')
    // The operation is deprecated: show what the service says about it, read from the headers.
    field(details, 'Deprecation', deprecation.deprecation ?? '(none)', 'lookup-deprecation')
    field(details, 'Sunset', deprecation.sunset ?? '(none)', 'lookup-sunset')
    field(details, 'Link', deprecation.link ?? '(none)', 'lookup-link')
    ui.lookupResult.replaceChildren(details)
  } catch (error) {
    const message = document.createElement('p')
    message.className = 'error'
    const notFound = isAnimalsApiError(error) && error.status === 404
    message.dataset.testid = notFound ? 'lookup-not-found' : 'lookup-error'
    message.textContent = notFound ? `Not found: ${errorText(error)}` : errorText(error)
    ui.lookupResult.replaceChildren(message)
  }
}

async function main(): Promise<void> {
  await startMocks()
  // Any non-empty key is accepted by a fake created without keys.
  const client = createAnimalsClient({ baseUrl: '/v1', apiKey: 'browser-demo-key' })
  ui.filter.addEventListener('change', () => void showList(client))
  ui.addForm.addEventListener('submit', (event) => {
    event.preventDefault()
    void addPet(client)
  })
  ui.lookupForm.addEventListener('submit', (event) => {
    event.preventDefault()
    void lookUp(client)
  })
  await showList(client)
  ui.state.textContent = 'Ready: every /v1 request is answered by the fake in the service worker.'
  ui.state.dataset.ready = 'true'
}

main().catch((error: unknown) => {
  ui.state.className = 'error'
  ui.state.textContent = `The example could not start: ${String(error)}`
})

import type { AnimalsPage, AnimalsQuery, ControlClient } from './control-client.js'
import { byTestId, element, tableBody } from './dom.js'
import { describeCategory, describeCounts, describePage, describeSearch } from './format.js'
import type { PetStatus } from '../spec/animals-service.js'

/** The animals of the chosen store, a page at a time: filtered by status, from an id, or found by name. */
export type StorePanel = { refresh(): Promise<void> }

/** What the panel needs to know about the store picker. */
export type StoreScope = { readonly isolated: boolean; readonly selected: string | undefined }

/** Creates the panel over its elements; `onInput` runs when the user changes the filter or page. */
export function createStorePanel(client: ControlClient, scope: StoreScope, onInput: () => void): StorePanel {
  const [counts, note, pageInfo] = ['counts', 'store-note', 'page-info'].map((id) => byTestId(id, HTMLElement)) as [HTMLElement, HTMLElement, HTMLElement]
  const rows = tableBody(byTestId('animals', HTMLTableElement))
  const filter = byTestId('status-filter', HTMLSelectElement)
  const pageSize = byTestId('page-size', HTMLSelectElement)
  const jumpForm = byTestId('jump-form', HTMLFormElement)
  const jumpId = byTestId('jump-id', HTMLInputElement)
  const findForm = byTestId('find-form', HTMLFormElement)
  const findName = byTestId('find-name', HTMLInputElement)
  const previous = byTestId('prev-page', HTMLButtonElement)
  const next = byTestId('next-page', HTMLButtonElement)
  const categories = JSON.parse(byTestId('animals', HTMLTableElement).dataset.categories ?? '{}') as Record<string, string>
  let offset = 0
  let total = 0
  // A jump is one read from an id; the pages after it go on by offset.
  let from: number | undefined
  let name = ''
  const limit = (): number => Number(pageSize.value)

  function restart(): void {
    offset = 0
    onInput()
  }
  for (const select of [filter, pageSize]) select.addEventListener('change', restart)
  jumpForm.addEventListener('submit', (event) => {
    event.preventDefault()
    from = Number(jumpId.value)
    findName.value = ''
    name = ''
    onInput()
  })
  findForm.addEventListener('submit', (event) => {
    event.preventDefault()
    name = findName.value.trim()
    restart()
  })
  previous.addEventListener('click', () => {
    offset = Math.max(0, offset - limit())
    onInput()
  })
  next.addEventListener('click', () => {
    if (offset + limit() < total) offset += limit()
    onInput()
  })

  async function load(): Promise<AnimalsPage> {
    const query: AnimalsQuery = { offset, limit: limit(), status: statusOf(filter.value), from, name: name === '' ? undefined : name }
    from = undefined
    const page = await client.animals(query)
    offset = page.offset
    // After a reset the store may be shorter than the page shown: go to its last page.
    if (page.animals.length === 0 && page.total > 0 && offset > 0 && query.from === undefined) {
      offset = Math.floor((page.total - 1) / limit()) * limit()
      return load()
    }
    return page
  }

  return {
    async refresh() {
      if (scope.isolated && scope.selected === undefined) {
        note.textContent = 'Under --isolate each key has its own store: pick one to see its animals.'
        for (const text of [counts, pageInfo]) text.textContent = ''
        for (const button of [previous, next]) button.disabled = true
        note.hidden = false
        rows.replaceChildren()
        return
      }
      const page = await load()
      total = page.total
      note.hidden = true
      counts.textContent = name === '' ? describeCounts(page.counts) : describeSearch(name, page)
      rows.replaceChildren(...page.animals.map((pet) => animalRow(pet, categories)))
      pageInfo.textContent = describePage(page.offset, page.animals.length, page.total)
      previous.disabled = offset === 0
      next.disabled = offset + limit() >= page.total
    },
  }
}

/** One animal as a row of the table: id, name, category, status. */
function animalRow(pet: AnimalsPage['animals'][number], categories: Readonly<Record<string, string>>): HTMLTableRowElement {
  return element('tr', { testId: 'animal-row' }, [
    element('td', { className: 'mono', text: String(pet.id) }),
    element('td', { text: pet.name }),
    element('td', { text: describeCategory(pet.categoryId, categories) }),
    element('td', {}, [pet.status === undefined ? '—' : element('span', { className: `badge ${pet.status}`, text: pet.status })]),
  ])
}

// The filter offers "any" and the page's statuses, which the server writes from the spec's.
function statusOf(value: string): PetStatus | undefined {
  return value === '' ? undefined : (value as PetStatus)
}

import type { AnimalsPage, ControlClient } from './control-client.js'
import { byTestId, element, tableBody } from './dom.js'
import { describeCounts, describePage } from './format.js'
import type { PetStatus } from '../spec/animals-service.js'

/** The animals of the chosen store, a page at a time, filtered by status. */
export type StorePanel = { refresh(): Promise<void> }

/** How many animals a page shows. */
export const PAGE_SIZE = 20

/** What the panel needs to know about the store picker. */
export type StoreScope = { readonly isolated: boolean; readonly selected: string | undefined }

/** Creates the panel over its elements; `onInput` runs when the user changes the filter or page. */
export function createStorePanel(client: ControlClient, scope: StoreScope, onInput: () => void): StorePanel {
  const counts = byTestId('counts', HTMLElement)
  const note = byTestId('store-note', HTMLElement)
  const rows = tableBody(byTestId('animals', HTMLTableElement))
  const filter = byTestId('status-filter', HTMLSelectElement)
  const previous = byTestId('prev-page', HTMLButtonElement)
  const next = byTestId('next-page', HTMLButtonElement)
  const pageInfo = byTestId('page-info', HTMLElement)
  let offset = 0
  let total = 0

  filter.addEventListener('change', () => {
    offset = 0
    onInput()
  })
  previous.addEventListener('click', () => {
    offset = Math.max(0, offset - PAGE_SIZE)
    onInput()
  })
  next.addEventListener('click', () => {
    if (offset + PAGE_SIZE < total) offset += PAGE_SIZE
    onInput()
  })

  async function load(): Promise<AnimalsPage> {
    const status = statusOf(filter.value)
    const page = await client.animals({ offset, limit: PAGE_SIZE, ...(status === undefined ? {} : { status }) })
    // After a reset the store may be shorter than the page shown: go to its last page.
    if (page.animals.length === 0 && page.total > 0 && offset > 0) {
      offset = Math.floor((page.total - 1) / PAGE_SIZE) * PAGE_SIZE
      return load()
    }
    return page
  }

  return {
    async refresh() {
      if (scope.isolated && scope.selected === undefined) {
        note.hidden = false
        note.textContent = 'Under --isolate each key has its own store: pick one to see its animals.'
        counts.textContent = ''
        rows.replaceChildren()
        pageInfo.textContent = ''
        previous.disabled = true
        next.disabled = true
        return
      }
      const page = await load()
      total = page.total
      note.hidden = true
      counts.textContent = describeCounts(page.counts)
      rows.replaceChildren(
        ...page.animals.map((pet) =>
          element('tr', { testId: 'animal-row' }, [
            element('td', { className: 'mono', text: String(pet.id) }),
            element('td', { text: pet.name }),
            element('td', { text: String(pet.categoryId) }),
            element('td', {}, [pet.status === undefined ? '—' : element('span', { className: `badge ${pet.status}`, text: pet.status })]),
          ]),
        ),
      )
      pageInfo.textContent = describePage(page.offset, page.animals.length, page.total)
      previous.disabled = offset === 0
      next.disabled = offset + PAGE_SIZE >= page.total
    },
  }
}

// The filter offers "any" and the page's statuses, which the server writes from the spec's.
function statusOf(value: string): PetStatus | undefined {
  return value === '' ? undefined : (value as PetStatus)
}

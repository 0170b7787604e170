import type { ControlClient, JournalEntry, JournalQuery } from './control-client.js'
import { byTestId, element, tableBody } from './dom.js'
import { clockTime, describeExchange, describeOutcome, statusClass } from './format.js'

/** The requests the API received, newest first, read a page at a time with `since`. */
export type JournalPanel = {
  /** Adds the entries that arrived since the last poll. */
  poll(): Promise<void>
  /** Clears the journal of the chosen store (or of every store) and the table. */
  clear(): Promise<void>
  /** Forgets what was shown, e.g. when another store is chosen. */
  restart(): void
}

/** The most rows kept on the page; the journal itself keeps 1,000. */
export const MAX_ROWS = 200

/** Entries asked for in one read, and the most reads one poll makes before the next poll goes on. */
const PAGE = { entries: 100, readsPerPoll: 4 } as const

/** Creates the panel over its table; the store column shows only under isolation. */
export function createJournalPanel(client: ControlClient, scope: { readonly isolated: boolean }): JournalPanel {
  const table = byTestId('journal', HTMLTableElement)
  const rows = tableBody(table)
  const empty = byTestId('journal-empty', HTMLElement)
  const detail = byTestId('journal-detail', HTMLElement)
  const method = byTestId('journal-method', HTMLSelectElement)
  const status = byTestId('journal-status', HTMLInputElement)
  const path = byTestId('journal-path', HTMLInputElement)
  // The `next` of the last page read; none yet: the first read takes the most recent page.
  let since: number | undefined
  // Counts restarts: a read that began before one must not add the rows of the old filter.
  let generation = 0

  // A changed filter reads the journal again from its start, through the filter.
  for (const input of [method, status, path]) input.addEventListener('change', () => restart())
  byTestId('journal-filter', HTMLFormElement).addEventListener('submit', (event) => {
    event.preventDefault()
    restart()
  })

  function query(): JournalQuery {
    const trimmed = path.value.trim()
    return {
      since,
      limit: PAGE.entries,
      method: method.value === '' ? undefined : method.value,
      status: status.value === '' || !status.checkValidity() ? undefined : Number(status.value),
      path: trimmed === '' ? undefined : trimmed,
    }
  }

  function restart(): void {
    generation += 1
    since = undefined
    rows.replaceChildren()
    detail.hidden = true
    empty.hidden = false
  }

  return {
    async poll() {
      table.classList.toggle('one-store', !scope.isolated)
      const started = generation
      for (let read = 0; read < PAGE.readsPerPoll; read++) {
        const page = await client.journal(query())
        if (started !== generation) return
        since = page.next
        if (page.entries.length > 0) {
          rows.prepend(...page.entries.toReversed().map((entry) => toRow(entry, detail)))
          while (rows.rows.length > MAX_ROWS) rows.lastElementChild?.remove()
          empty.hidden = true
        }
        if (!page.more) return
      }
    },
    async clear() {
      await client.clearJournal()
      const kept = since
      restart()
      since = kept // the journal's numbering goes on after a clear
    },
    restart,
  }
}

function toRow(entry: JournalEntry, detail: HTMLElement): HTMLTableRowElement {
  const path = entry.query === '' ? entry.path : `${entry.path}?${entry.query}`
  const row = element('tr', { testId: 'journal-row' }, [
    element('td', { className: 'mono', text: String(entry.seq) }),
    element('td', { className: 'mono nowrap', text: clockTime(entry.time) }),
    element('td', { className: 'nowrap', text: entry.tenant ?? '—' }),
    element('td', { text: entry.method }),
    element('td', { className: 'mono', text: path }),
    element('td', { className: `nowrap ${statusClass(entry.status)}`, text: describeOutcome(entry) }),
    element('td', { className: 'nowrap', text: entry.delayMs === 0 ? '' : `${entry.delayMs} ms` }),
  ])
  row.addEventListener('click', () => {
    detail.hidden = false
    detail.textContent = describeExchange(entry)
  })
  return row
}

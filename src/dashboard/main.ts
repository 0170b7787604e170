import { ControlError, createControlClient } from './control-client.js'
import { byTestId } from './dom.js'
import { createForcedForms } from './forced-form.js'
import { createJournalPanel } from './journal-panel.js'
import { createSettingsPanel } from './settings-panel.js'
import { createStorePanel } from './store-panel.js'
import { createStorePicker } from './store-picker.js'
import { createTokenPrompt } from './token-prompt.js'

// The dashboard polls the control API; a second is live enough to watch requests arrive.
const POLL_MS = 1000

const live = byTestId('live-status', HTMLElement)
const result = byTestId('action-result', HTMLElement)
const reset = byTestId('reset', HTMLButtonElement)
const seedForm = byTestId('seed-form', HTMLFormElement)
const seedCount = byTestId('seed-count', HTMLInputElement)
const clearJournal = byTestId('clear-journal', HTMLButtonElement)
// Every control sits in one fieldset, disabled until a read succeeds: with a control token (or
// --api-key) nothing can be pressed before the secret is given, and nothing twice while a call runs.
const controls = byTestId('controls', HTMLFieldSetElement)

const prompt = createTokenPrompt(() => refreshNow())
const client = createControlClient({ token: () => prompt.token, store: () => picker.selected })
const picker = createStorePicker(client, () => {
  journal.restart()
  refreshNow()
})
const store = createStorePanel(client, picker, () => refreshNow())
const journal = createJournalPanel(client, picker)
const settings = createSettingsPanel(client, act)
createForcedForms(client, act)
let busy = false

let timer: ReturnType<typeof setTimeout> | undefined
let running = false
let again = false

/** Reads everything once; on success polls again in a second, on a missing token waits for it. */
async function tick(): Promise<void> {
  running = true
  timer = undefined
  try {
    if (document.visibilityState !== 'hidden') {
      await picker.refresh()
      await Promise.all([store.refresh(), journal.poll(), settings.refresh()])
    }
    showLive('live', true)
    controls.disabled = busy
    schedule()
  } catch (error) {
    if (error instanceof ControlError && error.status === 401) {
      controls.disabled = true
      showLive('needs the control token', false)
      prompt.show(prompt.token === undefined ? '' : 'That token was refused.')
    } else {
      showLive(`cannot read the controls: ${messageOf(error)}`, false)
      schedule()
    }
  } finally {
    running = false
    if (again) {
      again = false
      refreshNow()
    }
  }
}

function schedule(): void {
  if (timer === undefined) timer = setTimeout(() => void tick(), POLL_MS)
}

/** Reads at once, or right after the read in flight, instead of waiting for the next poll. */
function refreshNow(): void {
  if (running) {
    again = true
    return
  }
  if (timer !== undefined) clearTimeout(timer)
  timer = undefined
  void tick()
}

function showLive(text: string, ok: boolean): void {
  live.textContent = text
  live.className = `live ${ok ? 'ok' : 'bad'}`
}

/** Runs a control call the user asked for, shows its outcome, then reads everything again. */
function act(call: () => Promise<string>): void {
  busy = true
  controls.disabled = true
  call().then(
    (message) => {
      result.className = 'result'
      result.textContent = message
    },
    (error: unknown) => {
      result.className = 'result bad'
      result.textContent = messageOf(error)
    },
  ).finally(() => {
    busy = false
    refreshNow()
  })
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

reset.addEventListener('click', () =>
  act(async () => {
    await client.reset()
    return picker.selected === undefined ? 'Back to the fixture.' : `${picker.selected} is back to the fixture.`
  }),
)
seedForm.addEventListener('submit', (event) => {
  event.preventDefault()
  act(async () => {
    const added = await client.seed(seedCount.valueAsNumber)
    return `Added ${added.added} generated animals.`
  })
})
clearJournal.addEventListener('click', () =>
  act(async () => {
    await journal.clear()
    return 'The journal is empty.'
  }),
)

void tick()

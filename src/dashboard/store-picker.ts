import { type ControlClient, ControlError, type StoresList } from './control-client.js'
import { byTestId, element } from './dom.js'

/** Under `--isolate`, the choice of store by label; hidden otherwise. */
export type StorePicker = {
  /** Reads the stores in use; a chosen store that is gone (after a reset) is unchosen. */
  refresh(): Promise<void>
  readonly isolated: boolean
  /** The chosen store's label, or undefined for every store. */
  readonly selected: string | undefined
}

/** Creates the picker over its `<select>`; `onChange` runs when the chosen store changes. */
export function createStorePicker(client: ControlClient, onChange: () => void): StorePicker {
  const label = byTestId('store-picker-label', HTMLLabelElement)
  const select = byTestId('store-picker', HTMLSelectElement)
  let isolated = false
  let selected: string | undefined
  select.addEventListener('change', () => {
    selected = select.value === '' ? undefined : select.value
    onChange()
  })
  return {
    async refresh() {
      const list = await storesSeen(client)
      isolated = list.isolated
      label.hidden = !isolated
      if (!isolated) return
      const options = list.stores.map((store) =>
        Object.assign(element('option', { text: `${store.label} (${store.animals} animals)` }), { value: store.label }),
      )
      select.replaceChildren(Object.assign(element('option', { text: 'every store' }), { value: '' }), ...options)
      const stillThere = selected !== undefined && list.stores.some((store) => store.label === selected)
      if (selected !== undefined && !stillThere) {
        selected = undefined
        onChange()
      }
      select.value = selected ?? ''
    },
    get isolated() {
      return isolated
    },
    get selected() {
      return selected
    },
  }
}

/**
 * The stores the dashboard's credential may pick from: every store for the operator. A team's key
 * may not list them (403 `operator_only`): it sees its own store alone, as if there were one.
 */
async function storesSeen(client: ControlClient): Promise<StoresList> {
  try {
    return await client.stores()
  } catch (error) {
    if (error instanceof ControlError && error.status === 403) return { isolated: false, stores: [] }
    throw error
  }
}

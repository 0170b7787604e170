import type { ControlClient } from './control-client.js'
import { byTestId, element } from './dom.js'
import { describeLatency, describeRule } from './format.js'

/** The forced responses and the latency currently set. */
export type SettingsPanel = { refresh(): Promise<void> }

/** Creates the panel; `act` runs a control call the user asked for, reporting its outcome. */
export function createSettingsPanel(client: ControlClient, act: (call: () => Promise<string>) => void): SettingsPanel {
  const rules = byTestId('forced', HTMLUListElement)
  const clearAll = byTestId('clear-forced', HTMLButtonElement)
  const latency = byTestId('latency', HTMLElement)
  clearAll.addEventListener('click', () =>
    act(async () => {
      await client.clearForced()
      return 'Removed every forced rule.'
    }),
  )
  return {
    async refresh() {
      const [forced, setting] = await Promise.all([client.forced(), client.latency()])
      rules.replaceChildren(
        ...(forced.length === 0
          ? [element('li', { className: 'note', text: 'none: every request gets its normal answer' })]
          : forced.map((rule) => {
              const remove = element('button', { text: 'remove', title: `Remove rule ${rule.id}` })
              remove.type = 'button'
              remove.addEventListener('click', () =>
                act(async () => {
                  await client.removeForced(rule.id)
                  return `Removed rule ${rule.id}.`
                }),
              )
              return element('li', { testId: 'forced-rule' }, [`${describeRule(rule)} `, remove])
            })),
      )
      clearAll.hidden = forced.length === 0
      latency.textContent = describeLatency(setting)
    },
  }
}

import type { ControlClient, ForcedRuleSpec, LatencySpec } from './control-client.js'
import { byTestId } from './dom.js'

/**
 * The forms that add a forced response and set the latency. Fields left empty are left out of
 * the request; the control API checks the rest and its message is shown as the outcome.
 */
export function createForcedForms(client: ControlClient, act: (call: () => Promise<string>) => void): void {
  const ruleForm = byTestId('force-form', HTMLFormElement)
  ruleForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const spec = ruleSpec(new FormData(ruleForm))
    act(async () => {
      const rule = await client.force(spec)
      return `Added rule ${rule.id}.`
    })
  })
  const latencyForm = byTestId('latency-form', HTMLFormElement)
  latencyForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const spec = latencySpec(new FormData(latencyForm))
    act(async () => {
      await client.setLatency(spec)
      return spec.ms === undefined && spec.minMs === undefined ? 'No latency.' : 'Latency set.'
    })
  })
  byTestId('latency-none', HTMLButtonElement).addEventListener('click', () => {
    latencyForm.reset()
    act(async () => {
      await client.setLatency({})
      return 'No latency.'
    })
  })
}

function ruleSpec(form: FormData): ForcedRuleSpec {
  const text = (name: string): string => String(form.get(name) ?? '').trim()
  const number = (name: string): number | undefined => (text(name) === '' ? undefined : Number(text(name)))
  const spec: { -readonly [K in keyof ForcedRuleSpec]: ForcedRuleSpec[K] } = {}
  if (text('method') !== '') spec.method = text('method')
  if (text('path') !== '') spec.path = text('path')
  const status = number('status')
  if (status !== undefined) spec.status = status
  if (text('code') !== '') spec.code = text('code')
  if (text('message') !== '') spec.message = text('message')
  const times = number('times')
  if (times !== undefined) spec.times = times
  const delayMs = number('delayMs')
  if (delayMs !== undefined) spec.delayMs = delayMs
  if (form.get('drop') !== null) spec.drop = true
  return spec
}

/** One figure is a fixed latency; two are a range. */
function latencySpec(form: FormData): LatencySpec {
  const min = String(form.get('minMs') ?? '').trim()
  const max = String(form.get('maxMs') ?? '').trim()
  if (min === '' && max === '') return {}
  if (max === '' || max === min) return { ms: Number(min === '' ? max : min) }
  return { minMs: Number(min === '' ? '0' : min), maxMs: Number(max) }
}

import { type Credential, judgeAnswer, type ObservedAnswer, type Violation } from '../spec-rules/answer-rules.js'
import type { Probe, ProbeAuth, ProbeRequest } from './probes.js'
import { cite } from '../spec/citations.js'

import { operationOf } from '../spec/animals-service.js'
import { definedOnly } from '../service/defined-only.js'
export { type Aspect, mediaType, type ObservedAnswer, type Violation } from '../spec-rules/answer-rules.js'

/** The credential a probe sends, as the answer rules name it. */
const CREDENTIAL_OF_PROBE: Readonly<Record<ProbeAuth, Credential>> = {
  key: 'key',
  none: 'none',
  'empty-token': 'empty-token',
  'invalid-key': 'refused-key',
  'wrong-scheme': 'wrong-scheme',
}

/**
 * Where an answer to a probe contradicts the spec: every rule of `judgeAnswer`, the status the
 * spec pins for the probe, and the exact size of a list when more animals exist than it asks for.
 * `sent` is the request as sent on that side, its placeholders filled in; without it, the checks
 * that need the animal's id or name are left out.
 */
export function checkAnswer(probe: Probe, answer: ObservedAnswer, sent?: ProbeRequest): Violation[] {
  const [path, query = ''] = (sent?.target ?? probe.path).split('?') as [string, string?]
  const body = sent === undefined ? undefined : sent.body
  const violations = judgeAnswer(
    {
      // A probe marked as the spec's none is held to no rule, whatever its method and path.
      operation: probe.operation === 'other' ? undefined : operationOf(probe.method, path.replace('{petId}', '1')),
      method: probe.method,
      path,
      query: sent === undefined ? (probe.query ?? '') : query,
      credential: CREDENTIAL_OF_PROBE[probe.auth],
      ...definedOnly({ body }),
    },
    answer,
  )
  const { expect } = probe
  if (expect.status !== undefined && answer.status !== expect.status && !violations.some((each) => each.aspect === 'status')) {
    violations.push({ aspect: 'status', reason: `${answer.status} instead of ${expect.status}; ${expect.rule}` })
  }
  if (probe.count !== undefined && answer.status === 200) {
    const count = listLength(answer.body)
    if (count !== undefined && count !== probe.count) {
      const asked = probe.query === undefined ? 'limit defaults to 20' : `${probe.query} asks for them`
      violations.push({ aspect: 'count', reason: `${count} animals listed where ${probe.count} are due: ${asked} and more exist; ${cite('limit')}` })
    }
  }
  return violations
}

function listLength(body: string): number | undefined {
  try {
    const value = JSON.parse(body) as unknown
    return Array.isArray(value) ? value.length : undefined
  } catch {}
  return undefined // not JSON
}

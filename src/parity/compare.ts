import type { Probe, ProbeRequest } from './probes.js'
import { type Aspect, checkAnswer, mediaType, type ObservedAnswer, type Violation } from './check-answer.js'
import { petPath } from '../spec/animals-service.js'
import { jsonOrUndefined } from '../service/json-value.js'

/**
 * An answer with the request that had it (its placeholders filled in), or why there was none (a
 * timeout, a refused connection).
 */
export type Observed = ({ readonly ok: true; readonly sent?: ProbeRequest } & ObservedAnswer) | { readonly ok: false; readonly error: string }

/** How the fake and the deployment answered one probe. */
export type ProbeOutcome = {
  readonly probe: Probe
  readonly fake: Observed
  readonly deployment: Observed
  /** How long the deployment took to answer, in milliseconds (0 where nobody timed it). */
  readonly deploymentMs?: number
}

/**
 * `contradiction`: an answer contradicts the spec (the side says which); `open`: the two differ
 * where the spec leaves the answer open; `no-answer`: a side did not answer.
 */
export type Verdict = 'contradiction' | 'open' | 'no-answer'

/** One thing parity found about a probe. */
export type Finding = {
  readonly probe: string
  readonly verdict: Verdict
  readonly aspect: Aspect
  readonly fake: string
  readonly deployment: string
  /** Which answer contradicts the spec. */
  readonly side?: 'deployment' | 'fake' | 'both'
  /** The rule of the spec, or why the spec leaves it open. */
  readonly reason: string
}

type Difference = { readonly aspect: Aspect; readonly fake: string; readonly deployment: string }

/** Why the spec leaves an aspect open. */
const OPEN_BECAUSE: Partial<Record<Aspect, string>> = {
  'header Location': 'the spec does not name a Location header',
  'header WWW-Authenticate': 'the spec does not name WWW-Authenticate',
  'header Allow': 'the spec does not name Allow',
  'header Deprecation': 'the spec says getPet is deprecated (9.2), not which header says so',
  'header Sunset': 'the spec gives the removal date (9.2), not which header states it; a Sunset of another day would contradict it',
  'header Link': 'the spec names the replacement, GET /pets with status (4.3), but no Link header',
  // Two JSON bodies never differ here (parameters are not compared): one body is empty, or the request is not the spec's.
  'content-type': 'the spec asks JSON of the bodies of its own operations only: not of an empty body, nor of a request it does not define',
  body: 'the spec leaves this part of the body open (an optional or extra field, or the answer to a request it does not define)',
}

function openBecause(aspect: Aspect): string {
  return OPEN_BECAUSE[aspect] ?? 'the spec leaves this open'
}

/**
 * Every difference between the two answers to a probe (status; then the headers that matter and
 * the body's shape, never its values), each judged against the spec, and every contradiction of
 * the spec even where both answers agree.
 */
export function compareOutcome(outcome: ProbeOutcome): Finding[] {
  const { probe, fake, deployment } = outcome
  if (!fake.ok || !deployment.ok) {
    return [
      {
        probe: probe.id,
        verdict: 'no-answer',
        aspect: 'status',
        fake: fake.ok ? String(fake.status) : `no answer: ${fake.error}`,
        deployment: deployment.ok ? String(deployment.status) : `no answer: ${deployment.error}`,
        reason: 'a side did not answer within the timeout, or the connection failed',
      },
    ]
  }
  const byFake = checkAnswer(probe, fake, fake.sent)
  const byDeployment = checkAnswer(probe, deployment, deployment.sent)
  const differences = differencesOf(probe, fake, deployment)
  const findings = differences.map((difference) => judge(probe, difference, byFake, byDeployment))
  const explained = new Set(differences.map((difference) => difference.aspect))
  // Contradictions both answers share, or that show in no compared aspect, are reported too.
  const left = [...new Set([...byFake, ...byDeployment].map((each) => each.aspect))].filter((aspect) => !explained.has(aspect))
  for (const aspect of left) {
    findings.push(judge(probe, { aspect, fake: describe(aspect, fake), deployment: describe(aspect, deployment) }, byFake, byDeployment))
  }
  return findings
}

function judge(probe: Probe, difference: Difference, byFake: readonly Violation[], byDeployment: readonly Violation[]): Finding {
  const onFake = byFake.filter((each) => each.aspect === difference.aspect)
  const onDeployment = byDeployment.filter((each) => each.aspect === difference.aspect)
  if (onFake.length === 0 && onDeployment.length === 0) {
    const openStatus = probe.expect.status === undefined && difference.aspect === 'status'
    const reason = openStatus ? probe.expect.rule : openBecause(difference.aspect)
    return { probe: probe.id, verdict: 'open', ...difference, reason }
  }
  const side = onFake.length === 0 ? 'deployment' : onDeployment.length === 0 ? 'fake' : 'both'
  const reasons = [...new Set([...onDeployment, ...onFake].map((each) => each.reason))]
  return { probe: probe.id, verdict: 'contradiction', ...difference, side, reason: reasons.join('; ') }
}

function differencesOf(probe: Probe, fake: ObservedAnswer, deployment: ObservedAnswer): Difference[] {
  // A different status explains every other difference; comparing further would only repeat it.
  if (fake.status !== deployment.status) return [{ aspect: 'status', fake: String(fake.status), deployment: String(deployment.status) }]
  const differences: Difference[] = []
  const add = (aspect: Aspect): void => {
    const [a, b] = [describe(aspect, fake), describe(aspect, deployment)]
    if (a !== b) differences.push({ aspect, fake: a, deployment: b })
  }
  add('content-type')
  for (const aspect of headersThatMatter(probe, fake.status)) add(aspect)
  const [a, b] = [shapeOf(fake.body), shapeOf(deployment.body)]
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const [left, right] = [a.get(path) ?? 'absent', b.get(path) ?? 'absent']
    if (left !== right) differences.push({ aspect: 'body', fake: `${path}: ${left}`, deployment: `${path}: ${right}` })
  }
  // Counted only between two lists: a body that is not a list breaks the body's rule, not the count's.
  if (probe.count !== undefined && [a, b].every((shape) => shape.get('$') === 'array')) add('count')
  return differences
}

function headersThatMatter(probe: Probe, status: number): Aspect[] {
  const aspects: Aspect[] = []
  if (probe.operation === 'createPet' && status === 201) aspects.push('header Location')
  if (probe.operation === 'getPet') aspects.push('header Deprecation', 'header Sunset', 'header Link')
  if (status === 401) aspects.push('header WWW-Authenticate')
  if (status === 405) aspects.push('header Allow')
  return aspects
}

/** One aspect of an answer in a few words: values only where the spec pins them. */
function describe(aspect: Aspect, answer: ObservedAnswer): string {
  switch (aspect) {
    case 'status':
      return String(answer.status)
    case 'content-type':
      return mediaType(answer) || 'none'
    case 'count': {
      const list = jsonOrUndefined(answer.body)
      return Array.isArray(list) ? `${list.length} animals` : 'not a list'
    }
    case 'body':
    // Scenarios judge these from several answers; one answer is shown by its body.
    case 'stored animals':
    case 'ids':
    case 'availability':
      return summary(answer.body)
    case 'header Location':
      return locationShape(answer.headers.location)
    case 'header Sunset':
      return answer.headers.sunset ?? 'absent'
    case 'header Deprecation':
      return present(answer.headers.deprecation)
    case 'header Link':
      return present(answer.headers.link)
    case 'header WWW-Authenticate':
      return present(answer.headers['www-authenticate'])
    case 'header Allow':
      return present(answer.headers.allow)
  }
}

function present(value: string | undefined): string {
  return value === undefined ? 'absent' : 'present'
}

function locationShape(value: string | undefined): string {
  if (value === undefined) return 'absent'
  const last = value.split('/').pop() ?? ''
  const ending = /^[0-9]+$/.test(last) && value.includes(petPath('')) ? `…${petPath('<id>')}` : 'another address'
  return `${value.startsWith('/') ? 'a path' : 'a URL'} to ${ending}`
}

function summary(body: string): string {
  if (body === '') return 'empty'
  const value = jsonOrUndefined(body)
  if (value === undefined) return 'not JSON'
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (value === null) return 'null'
  if (typeof value === 'object') return `an object with ${Object.keys(value).sort().join(', ') || 'no fields'}`
  return typeof value
}

/**
 * The shape of a JSON body as paths to types, e.g. `$[].id` → `integer`; items of arrays are
 * merged, so neither order nor length matters, and no value is kept.
 */
export function shapeOf(body: string): Map<string, string> {
  const shape = new Map<string, Set<string>>()
  const record = (path: string, type: string): void => {
    shape.set(path, (shape.get(path) ?? new Set()).add(type))
  }
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      record(path, 'array')
      for (const item of value) walk(item, `${path}[]`)
    } else if (typeof value === 'object' && value !== null) {
      record(path, 'object')
      for (const [key, field] of Object.entries(value)) walk(field, `${path}.${key}`)
    } else {
      record(path, value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value)
    }
  }
  if (body === '') record('$', 'empty')
  else {
    const value = jsonOrUndefined(body)
    if (value === undefined) record('$', 'not JSON')
    else walk(value, '$')
  }
  return new Map([...shape].map(([path, types]) => [path, [...types].sort().join(' or ')]))
}


import { expect, it } from 'vitest'
import { effectOf, firstRule, parseForcedRule } from '../../src/fake/forced.js'
import { createMemoryRules, type MemoryRules } from '../../src/memory/rules.js'
import type { PlainRequest } from '../../src/service/http.js'
import { EVERY_STORE, type ForcedRule, type ForcedRuleSpec, MAX_FORCED_RULES, MAX_FORCED_RULES_IN_ALL } from '../../src/store/scope.js'
import { plainRequest } from '../support/core-fake.js'

const get = (path: string, method = 'GET') => plainRequest({ method, path })

/** Adds a rule to a scope, failing the test when it is refused. */
function add(rules: MemoryRules, scope: string, spec: ForcedRuleSpec): ForcedRule {
  const added = rules.add(scope, spec)
  if (added instanceof Promise || !added.ok) throw new Error(`refused: ${JSON.stringify(added)}`)
  return added.value
}

/** What the first rule of `label`'s view does to a request, its use counted, as the pipeline takes it. */
function take(rules: MemoryRules, label: string, request: PlainRequest) {
  const view = rules.view(label)
  if (view instanceof Promise) throw new Error('memory answers at once')
  const rule = firstRule(view, request)
  if (rule === undefined) return undefined
  if (rule.remaining !== undefined) rules.take(rule.tenant ?? EVERY_STORE, rule.id)
  return effectOf(rule)
}

const statusOf = (effect: ReturnType<typeof take>) => (effect?.kind === 'respond' ? effect.response.status : effect?.kind)
const listOf = (rules: MemoryRules, scope?: string) => rules.list(scope) as ForcedRule[]

it('fires a rule on its method in any case, on its path with * for one segment, under the base path too', () => {
  const rules = createMemoryRules('shared')
  // The method in any case is read as capitals, where a rule is checked.
  const spec = parseForcedRule({ method: 'get', path: '/pets/*', status: 503 })
  add(rules, 'shared', spec.ok ? spec.value : {})
  expect(listOf(rules)[0]).toMatchObject({ method: 'GET', path: '/pets/*', tenant: 'shared' })
  expect(statusOf(take(rules, 'shared', get('/pets/7')))).toBe(503)
  expect(statusOf(take(rules, 'shared', plainRequest({ path: '/pets/7', basePath: '/v1' })))).toBe(503)
  expect(take(rules, 'shared', get('/pets/7', 'HEAD'))).toBeUndefined()
  expect(take(rules, 'shared', get('/pets'))).toBeUndefined()
  expect(take(rules, 'shared', get('/pets/7/x'))).toBeUndefined()
  expect(take(rules, 'shared', get('/cats/7'))).toBeUndefined()
  const exact = createMemoryRules('shared')
  add(exact, 'shared', { path: '/v1/pets', status: 500 })
  expect(statusOf(take(exact, 'shared', plainRequest({ path: '/pets', basePath: '/v1' })))).toBe(500)
  expect(take(exact, 'shared', plainRequest({ path: '/pets', basePath: '/v2' }))).toBeUndefined()
})

it('counts down a rule with times and then lets it go, the next rule taking over', () => {
  const rules = createMemoryRules('shared')
  const twice = add(rules, 'shared', { status: 502, times: 2 })
  add(rules, 'shared', { status: 504 })
  expect(twice).toMatchObject({ id: 1, remaining: 2 })
  expect(statusOf(take(rules, 'shared', get('/pets')))).toBe(502)
  expect(listOf(rules)[0]).toMatchObject({ id: 1, remaining: 1 })
  expect(statusOf(take(rules, 'shared', get('/pets')))).toBe(502)
  expect(listOf(rules).map((rule) => rule.id)).toEqual([2])
  expect(statusOf(take(rules, 'shared', get('/pets')))).toBe(504)
  expect(statusOf(take(rules, 'shared', get('/pets')))).toBe(504)
  expect('remaining' in (listOf(rules)[0] ?? {})).toBe(false)
  expect('segments' in (listOf(rules)[0] ?? {})).toBe(false)
})

it('gives rules of every scope distinct ids, a store meeting its own rules first and then every store\'s, each scope listing, removing and clearing only its own', () => {
  const rules = createMemoryRules(EVERY_STORE)
  add(rules, 'tenant-1', { status: 500, path: '/pets/1' })
  add(rules, 'tenant-2', { status: 501 })
  add(rules, EVERY_STORE, { status: 502 })
  expect(listOf(rules, 'tenant-1').map((rule) => [rule.id, rule.tenant])).toEqual([[1, 'tenant-1']])
  expect(listOf(rules).map((rule) => [rule.id, rule.tenant])).toEqual([[1, 'tenant-1'], [2, 'tenant-2'], [3, null]])
  expect(statusOf(take(rules, 'tenant-1', get('/pets/1')))).toBe(500)
  expect(statusOf(take(rules, 'tenant-1', get('/pets/2')))).toBe(502)
  expect(statusOf(take(rules, 'tenant-2', get('/pets/1')))).toBe(501)
  expect(rules.remove('tenant-2', 1)).toBe(false)
  expect(rules.remove(undefined, 1)).toBe(true)
  expect(rules.remove(undefined, 1)).toBe(false)
  rules.clear('tenant-2')
  expect(listOf(rules).map((rule) => rule.status)).toEqual([502])
  rules.drop(EVERY_STORE)
  expect(listOf(rules)).toEqual([])
})

it(`refuses a rule past ${MAX_FORCED_RULES} in one scope and past ${MAX_FORCED_RULES_IN_ALL} in every scope together, and takes one again once a rule goes, a rule run out of times included`, () => {
  const rules = createMemoryRules(EVERY_STORE)
  const scopes = Array.from({ length: MAX_FORCED_RULES_IN_ALL / MAX_FORCED_RULES }, (_, i) => `tenant-${i + 1}`)
  for (const scope of scopes) for (let i = 0; i < MAX_FORCED_RULES; i++) add(rules, scope, { status: 503 })
  expect(rules.add('tenant-1', { status: 503 })).toEqual({ ok: false, error: 'scope' })
  expect(rules.add('tenant-late', { status: 503 })).toEqual({ ok: false, error: 'all' })
  rules.remove('tenant-4', listOf(rules, 'tenant-4')[0]?.id)
  expect(add(rules, 'tenant-late', { status: 503, path: '/late' })).toMatchObject({ tenant: 'tenant-late', id: MAX_FORCED_RULES_IN_ALL + 1 })
  expect(rules.add('tenant-late', { status: 503 })).toEqual({ ok: false, error: 'all' })
  rules.clear('tenant-1')
  const once = add(rules, 'tenant-late', { status: 500, times: 1, path: '/once' })
  for (let i = 1; i < MAX_FORCED_RULES; i++) add(rules, 'tenant-1', { status: 503 })
  expect(rules.add('tenant-1', { status: 503 })).toEqual({ ok: false, error: 'all' })
  expect(statusOf(take(rules, 'tenant-late', get('/once')))).toBe(500)
  expect(listOf(rules, 'tenant-late').map((rule) => rule.id)).not.toContain(once.id)
  expect(add(rules, 'tenant-1', { status: 503 })).toMatchObject({ tenant: 'tenant-1' })
})

it('answers with the status, its usual code and a default message, or delays, or drops, each after its delay', () => {
  const rules = createMemoryRules('shared')
  for (const spec of [{ status: 503 }, { status: 418, code: 'teapot', message: 'short and stout', delayMs: 5 }, { status: 599 }, { delayMs: 7 }, { drop: true, delayMs: 9 }]) add(rules, 'shared', { ...spec, times: 1 })
  const body = (effect: ReturnType<typeof take>) => (effect?.kind === 'respond' ? [JSON.parse(effect.response.body ?? ''), effect.response.delayMs] : effect)
  expect(body(take(rules, 'shared', get('/pets')))).toEqual([{ code: 'service_unavailable', message: 'A forced 503 response set through animals-mock.', status: 503 }, 0])
  expect(body(take(rules, 'shared', get('/pets')))).toEqual([{ code: 'teapot', message: 'short and stout', status: 418 }, 5])
  expect(body(take(rules, 'shared', get('/pets')))).toEqual([{ code: 'error_599', message: 'A forced 599 response set through animals-mock.', status: 599 }, 0])
  expect(take(rules, 'shared', get('/pets'))).toEqual({ kind: 'delay', delayMs: 7 })
  expect(take(rules, 'shared', get('/pets'))).toEqual({ kind: 'drop', reply: { kind: 'drop', delayMs: 9 } })
  expect(take(rules, 'shared', get('/pets'))).toBeUndefined()
})

it('keeps a scope\'s own latency until every store\'s is set, which replaces each one\'s', () => {
  const rules = createMemoryRules(EVERY_STORE)
  rules.setLatency('tenant-1', { kind: 'fixed', ms: 5 }, false)
  const view = rules.view('tenant-1')
  expect(view).toMatchObject({ own: { latency: { kind: 'fixed', ms: 5 } }, every: { latency: undefined } })
  rules.setLatency(EVERY_STORE, { kind: 'fixed', ms: 9 }, true)
  expect(rules.view('tenant-1')).toMatchObject({ own: { latency: undefined }, every: { latency: { kind: 'fixed', ms: 9 } } })
  rules.clear(undefined)
  expect(rules.view('tenant-1')).toMatchObject({ own: { latency: undefined }, every: { latency: undefined } })
})

it('refuses a path that is not a string', () => {
  const refused = parseForcedRule({ path: 5, status: 500 })
  expect(refused.ok || refused.error.message).toBe("Field 'path' must start with / (for example /pets or /pets/*).")
})

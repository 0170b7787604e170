import { fail, ok } from '../service/http.js'
import type { RulesPort } from '../store/port.js'
import { forcedRule, inForce, type Latency, listed, MAX_FORCED_RULES, MAX_FORCED_RULES_IN_ALL, type RuleInForce, type ScopeView } from '../store/scope.js'

/** One scope as memory keeps it: the object a view holds, changed in place. */
type MemoryScope = { rules: readonly RuleInForce[]; latency: Latency | undefined; readonly version: string }

/** The rules port in memory, and what a store's drop or a request's taken rule asks of it. */
export type MemoryRules = RulesPort & {
  /** Counts a use of rule `id` of `scope`: one fewer left, gone after its last. */
  take(scope: string, id: number): void
  /** Forgets a scope whose store was dropped. */
  drop(scope: string): void
}

/**
 * Each scope's forced rules and latency in this process. A view is made once per store and holds
 * the scopes' own objects, so a request reads the rules as they are without a copy; rule ids go on
 * across scopes. `every` is the scope every store's requests meet after their own.
 */
export function createMemoryRules(every: string): MemoryRules {
  const scopes = new Map<string, MemoryScope>()
  const views = new Map<string, ScopeView>()
  let lastId = 0
  let inForceCount = 0
  const scopeOf = (name: string): MemoryScope => {
    let scope = scopes.get(name)
    if (scope === undefined) {
      scope = { rules: [], latency: undefined, version: '' }
      scopes.set(name, scope)
    }
    return scope
  }
  const named = (name: string | undefined): MemoryScope[] => (name === undefined ? [...scopes.values()] : [scopeOf(name)])
  const replaceRules = (scope: MemoryScope, rules: readonly RuleInForce[]): void => {
    inForceCount += rules.length - scope.rules.length
    scope.rules = rules
  }
  return {
    view(label) {
      let view = views.get(label)
      if (view === undefined) {
        view = { own: scopeOf(label), every: scopeOf(every) }
        views.set(label, view)
      }
      return view
    },
    add(name, spec) {
      const scope = scopeOf(name)
      if (scope.rules.length >= MAX_FORCED_RULES) return fail('scope')
      if (inForceCount >= MAX_FORCED_RULES_IN_ALL) return fail('all')
      lastId += 1
      const rule = inForce(forcedRule(lastId, name, spec, spec.times))
      replaceRules(scope, [...scope.rules, rule])
      return ok(listed(rule))
    },
    list: (name) =>
      named(name)
        .flatMap((scope) => scope.rules.map(listed))
        .sort((a, b) => a.id - b.id),
    remove(name, id) {
      for (const scope of named(name)) {
        const kept = scope.rules.filter((rule) => id !== undefined && rule.id !== id)
        if (kept.length < scope.rules.length) {
          replaceRules(scope, kept)
          if (id !== undefined) return true
        }
      }
      return id === undefined
    },
    setLatency(name, latency, everywhere) {
      if (everywhere) for (const scope of scopes.values()) scope.latency = undefined
      scopeOf(name).latency = latency
    },
    clear(name) {
      for (const scope of named(name)) {
        replaceRules(scope, [])
        scope.latency = undefined
      }
    },
    take(name, id) {
      const scope = scopeOf(name)
      const index = scope.rules.findIndex((rule) => rule.id === id)
      const rule = scope.rules[index]
      if (rule?.remaining === undefined) return
      replaceRules(scope, rule.remaining <= 1 ? scope.rules.filter((_, i) => i !== index) : scope.rules.with(index, { ...rule, remaining: rule.remaining - 1 }))
    },
    drop(name) {
      const scope = scopes.get(name)
      if (scope !== undefined) replaceRules(scope, [])
      scopes.delete(name)
      views.delete(name)
    },
  }
}

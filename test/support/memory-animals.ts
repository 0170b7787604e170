import { openStore, type Store, type StoreOptions } from '../../src/memory/animals.js'

/**
 * A store in memory for a test: `openStore`'s, thrown when its initial animals do not fit its budget.
 * @example createStore({ initial: [{ id: 1, name: 'Rex', categoryId: 2 }] }).get(1) // '{"id":1,...}'
 */
export function createStore(options: StoreOptions = {}): Store {
  const opened = openStore(options)
  if (!opened.ok) throw new Error(`the initial animals do not fit the budget: ${JSON.stringify(opened.error)}`)
  return opened.value
}

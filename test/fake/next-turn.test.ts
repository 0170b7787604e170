import { expect, it } from 'vitest'
import { nextTurn } from '../../src/fake/next-turn.js'

// Waits begun together end one a turn of the event loop, each after the callbacks already queued
// for that turn: eight searches pausing at once must not resume back to back while a socket waits.
it('ends waits begun together one per turn of the event loop, in the order they began', async () => {
  const order: string[] = []
  const waits = [1, 2, 3].map((n) => nextTurn().then(() => void order.push(`wait ${n}`)))
  let turns = 0
  const everyTurn = (): void => {
    order.push('turn')
    turns += 1
    if (turns < 3) setImmediate(everyTurn)
  }
  setImmediate(everyTurn)
  await Promise.all(waits)
  await new Promise((resolve) => setImmediate(resolve))
  expect(order).toEqual(['wait 1', 'turn', 'wait 2', 'turn', 'wait 3', 'turn'])
})

it('ends a wait begun after the others have ended on a turn of its own', async () => {
  await nextTurn()
  const order: string[] = []
  setImmediate(() => order.push('queued before'))
  await nextTurn()
  order.push('wait')
  expect(order).toEqual(['queued before', 'wait'])
})

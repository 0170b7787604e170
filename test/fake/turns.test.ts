import { expect, it } from 'vitest'
import { takingTurns } from '../../src/fake/turns.js'

it('runs at most that many tasks at once, the others in the order they came, each place handed on even when a task fails', async () => {
  const inTurn = takingTurns(2)
  let running = 0
  let most = 0
  const started: number[] = []
  const ends: (() => void)[] = []
  const task = (n: number, fails = false) =>
    inTurn(async () => {
      started.push(n)
      running += 1
      most = Math.max(most, running)
      await new Promise<void>((resolve) => ends.push(resolve))
      running -= 1
      if (fails) throw new Error(`task ${n} failed`)
      return n
    })
  const results = [task(1, true), task(2), task(3), task(4), task(5)].map((promise) => promise.catch((error: Error) => error.message))
  await new Promise((resolve) => setImmediate(resolve))
  expect(started).toEqual([1, 2])
  // The first ends (failing): the third takes its place, not a newcomer.
  ends.shift()?.()
  await new Promise((resolve) => setImmediate(resolve))
  const late = task(6)
  expect(started).toEqual([1, 2, 3])
  while (ends.length > 0) {
    ends.shift()?.()
    await new Promise((resolve) => setImmediate(resolve))
  }
  expect(await Promise.all([...results, late])).toEqual(['task 1 failed', 2, 3, 4, 5, 6])
  expect(started).toEqual([1, 2, 3, 4, 5, 6])
  expect(most).toBe(2)
  // With every place free again, two start at once.
  const again = [task(7), task(8), task(9)]
  await new Promise((resolve) => setImmediate(resolve))
  expect(started.slice(6)).toEqual([7, 8])
  while (ends.length > 0) {
    ends.shift()?.()
    await new Promise((resolve) => setImmediate(resolve))
  }
  expect(await Promise.all(again)).toEqual([7, 8, 9])
})

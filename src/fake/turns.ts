/**
 * Lets at most `most` tasks run at once, the others waiting their turn in the order they came:
 * what bounds the memory of reads that copy from a store kept elsewhere (searches, journal pages),
 * every request's together.
 * @example const inTurn = takingTurns(4); await inTurn(() => readPage())
 */
export function takingTurns(most: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (task) => {
    // A task that ends hands its place to the first waiting, so a newcomer never overtakes them.
    if (running < most) running += 1
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next === undefined) running -= 1
      else next()
    }
  }
}

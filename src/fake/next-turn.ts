// Long work waits here between its slices. Each wait ends on a turn of the event loop of its own,
// one waiter a turn, after the sockets have had theirs: eight searches that pause together resume
// one at a time, not eight slices back to back while a request waits. setImmediate where there is
// one (Node: the check phase, after I/O); a timer elsewhere (a browser).
const waiting: (() => void)[] = []
let scheduled = false
type Later = (run: () => void) => unknown
const later: Later = (globalThis as { readonly setImmediate?: Later }).setImmediate ?? ((run) => setTimeout(run, 0))

function resumeOne(): void {
  scheduled = false
  const next = waiting.shift()
  if (waiting.length > 0) schedule()
  next?.()
}

function schedule(): void {
  if (scheduled) return
  scheduled = true
  later(resumeOne)
}

/**
 * Resolves on a later turn of the event loop, after requests waiting on sockets have had theirs,
 * and after every wait begun before it. Long work (a seed, a snapshot load, a search, a journal
 * page) waits for it between slices of a few milliseconds.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve)
    schedule()
  })
}

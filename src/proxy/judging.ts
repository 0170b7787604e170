import { Worker } from 'node:worker_threads'
import { judgeAnswer, type Violation } from '../spec-rules/answer-rules.js'
import type { Judge } from './proxy-api.js'

/** Options of `createJudge`. */
export type JudgeOptions = {
  /** The built judge-worker.js. */
  readonly worker: URL
  /** Bodies up to this many characters are judged in this thread: a list of 100 animals is about 10,000. */
  readonly inlineChars: number
  /** Large bodies judged at once, each in a worker thread of its own; the others wait their turn. */
  readonly concurrent: number
}

/**
 * Judges an answer where it cannot hold the event loop: a body of up to `inlineChars` in this thread
 * (a millisecond or two), a larger one in a worker thread that the exchange's signal terminates,
 * so that a deadline passed mid-judgement ends the work too.
 */
export function createJudge(options: JudgeOptions): Judge {
  let running = 0
  const waiting: (() => void)[] = []
  // A turn among the large judgements; `false` when the exchange's deadline passed while it waited.
  const turn = (signal: AbortSignal): Promise<boolean> => {
    if (running < options.concurrent) {
      running += 1
      return Promise.resolve(true)
    }
    return new Promise((resolve) => {
      const go = (): void => {
        signal.removeEventListener('abort', giveUp)
        running += 1
        resolve(true)
      }
      const giveUp = (): void => {
        waiting.splice(waiting.indexOf(go), 1)
        resolve(false)
      }
      waiting.push(go)
      signal.addEventListener('abort', giveUp, { once: true })
    })
  }
  const done = (): void => {
    running -= 1
    waiting.shift()?.()
  }
  return async (request, answer, signal) => {
    if (answer.body.length <= options.inlineChars) return judgeAnswer(request, answer)
    if (!(await turn(signal))) return undefined
    try {
      return await inWorker(options.worker, { request, answer }, signal)
    } finally {
      done()
    }
  }
}

function inWorker(file: URL, data: object, signal: AbortSignal): Promise<Violation[] | undefined> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      resolve(undefined)
      return
    }
    const worker = new Worker(file, { workerData: data })
    const abort = (): void => {
      void worker.terminate()
      resolve(undefined)
    }
    signal.addEventListener('abort', abort, { once: true })
    const finish = (): void => signal.removeEventListener('abort', abort)
    worker.once('message', (violations: Violation[]) => {
      finish()
      resolve(violations)
      void worker.terminate()
    })
    worker.once('error', (error) => {
      finish()
      reject(error)
    })
  })
}

import { open, readFile, rename, rm } from 'node:fs/promises'
import { parseFixture } from '../core/fixture.js'
import type { Pet } from '../core/pets.js'
import type { Store } from '../core/store.js'

/** Thrown when a state file exists but cannot be used; the start stops and the file is left alone. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError'
}

/**
 * Reads the state file: the animals as a fixture. `undefined` when there is none yet; a corrupt
 * one is refused, never overwritten.
 */
export async function readStateFile(path: string): Promise<Pet[] | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new StateFileError(`state file ${path}: ${(error as Error).message}`)
  }
  const pets = parseFixture(text)
  if (!pets.ok) {
    throw new StateFileError(`state file ${path} is corrupt (${pets.error}); it was left as it is: move it away or fix it`)
  }
  return pets.value
}

/** Options of `createStateWriter`. */
export type StateWriterOptions = {
  readonly path: string
  /** The store to save, asked anew each time (a reset replaces it). */
  readonly store: () => Store
  /** How often to save when something changed. */
  readonly intervalMs: number
  readonly onError: (error: unknown) => void
}

/** Saves the store to its state file now and then, and once more when asked to stop. */
export type StateWriter = { save(): Promise<void>; stop(): Promise<void> }

// Written in chunks so that a large store does not need one huge string, and so that the event
// loop keeps serving between them.
const CHUNK = 20_000

/**
 * Writes atomically: the animals go to a temporary file next to the state file, which is synced
 * and then renamed over it. A crash mid-write leaves the previous state file whole.
 */
export function createStateWriter(options: StateWriterOptions): StateWriter {
  let written = options.store().revision
  let writtenStore = options.store()
  let running: Promise<void> | undefined

  async function write(): Promise<void> {
    const store = options.store()
    const revision = store.revision
    if (store === writtenStore && revision === written) return
    const texts = store.texts()
    const temporary = `${options.path}.${process.pid}.tmp`
    const file = await open(temporary, 'w')
    try {
      await file.write('[\n')
      for (let start = 0; start < texts.length; start += CHUNK) {
        const lines = texts.slice(start, start + CHUNK).join(',\n')
        await file.write(start + CHUNK < texts.length ? `${lines},\n` : `${lines}\n`)
      }
      await file.write(']\n')
      await file.sync()
    } catch (error) {
      await file.close()
      await rm(temporary, { force: true })
      throw error
    }
    await file.close()
    await rename(temporary, options.path)
    written = revision
    writtenStore = store
  }

  function save(): Promise<void> {
    running ??= write().finally(() => {
      running = undefined
    })
    return running
  }

  const timer = setInterval(() => {
    save().catch(options.onError)
  }, options.intervalMs)
  timer.unref()

  return {
    save,
    async stop() {
      clearInterval(timer)
      await running?.catch(() => undefined)
      await save()
    },
  }
}

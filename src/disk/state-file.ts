import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { parseFixture } from '../fake/fixture.js'
import { compareInt64, nextInt64, parseInt64Text, toInt64 } from '../service/int64.js'
import type { IdReservation, Store } from '../memory/animals.js'
import type { Pet } from '../spec/animals-service.js'
import type { Int64 } from '../spec/animals-service.js'

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

/**
 * Makes sure the state file can be written before the fake starts (its directory exists and is
 * writable), and removes temporaries of this state file that a killed process left behind.
 */
export async function prepareStateFile(path: string): Promise<void> {
  const probe = temporaryName(path)
  try {
    const file = await open(probe, 'wx')
    await file.close()
    await rm(probe, { force: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? `the folder ${dirname(path)} does not exist` : isDenied(error) ? `no permission to write in ${dirname(path)}` : (error as Error).message
    throw new StateFileError(`cannot write the state file ${path}: ${why}`)
  }
  const prefix = `${basename(path)}.`
  try {
    for (const name of await readdir(dirname(path))) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) await rm(join(dirname(path), name), { force: true })
    }
  } catch (error) {
    // A folder one may write in but not list (mode -wx), or a leftover of another user's.
    const why = isDenied(error) ? `no permission to list ${dirname(path)} or remove its ${prefix}*.tmp files` : (error as Error).message
    throw new StateFileError(`cannot clear what a stopped fake left of the state file ${path}: ${why}`)
  }
}

function isDenied(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'EACCES' || code === 'EPERM'
}

// Unpredictable, so that no other user of the folder can place a link where the fake will write.
function temporaryName(path: string): string {
  return `${path}.${randomBytes(8).toString('hex')}.tmp`
}

/** Ids reserved on disk at a time: one small synchronous write per this many creations. */
export const ID_BLOCK = 10_000

/**
 * The id reservation of a state file, in `<state file>.ids`: before the fake hands out an id at or
 * past the reserved ceiling, it writes a new ceiling (a block further) and syncs it. After a crash,
 * even one that lost the last writes of the state file, a restart continues above the ceiling, so
 * no id answered 201 is ever given to another animal. Near the top of the int64 range the ceiling
 * is the next id; the largest id itself cannot be reserved (no id follows it) and is never handed out.
 */
export function createIdReservation(path: string): IdReservation {
  const file = `${path}.ids`
  // Every id used is below it: the ceiling is the lowest id that may still be handed out.
  let ceiling = readCeiling(file)
  return {
    get floor() {
      return ceiling
    },
    use(id) {
      if (compareInt64(id, ceiling) < 0) return
      const next = toInt64(BigInt(id) + BigInt(ID_BLOCK)) ?? nextInt64(id)
      if (next === undefined) throw new StateFileError(`id reservation ${file}: no id follows ${id}, so it cannot be reserved`)
      writeDurably(file, `${JSON.stringify({ next: String(next) })}\n`)
      ceiling = next
    },
  }
}

function readCeiling(file: string): Int64 {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 1
    throw new StateFileError(`id reservation ${file}: ${(error as Error).message}`)
  }
  let next: Int64 | undefined
  try {
    // A missing or null next reads as 'undefined' or 'null', which parseInt64Text refuses like any
    // text that is no number; a document of null throws here.
    next = parseInt64Text(String((JSON.parse(text) as { next?: unknown }).next))
  } catch {} // not JSON: next stays undefined
  if (next === undefined) throw new StateFileError(`id reservation ${file} is corrupt; it was left as it is: move it away or fix it`)
  return next
}

function writeDurably(file: string, text: string): void {
  const temporary = temporaryName(file)
  const fd = openSync(temporary, 'wx')
  try {
    try {
      writeSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temporary, file)
  } catch (error) {
    // A full disk fails the write after open made the file: no failed write leaves it behind.
    rmSync(temporary, { force: true })
    throw error
  }
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
export type StateWriter = { save(always?: boolean): Promise<void>; stop(): Promise<void> }

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

  async function write(always: boolean): Promise<void> {
    const store = options.store()
    const revision = store.revision
    if (!always && store === writtenStore && revision === written) return
    const texts = store.texts()
    const temporary = temporaryName(options.path)
    const file = await open(temporary, 'wx')
    try {
      try {
        await file.write('[\n')
        for (let start = 0; start < texts.length; start += CHUNK) {
          const lines = texts.slice(start, start + CHUNK).join(',\n')
          await file.write(start + CHUNK < texts.length ? `${lines},\n` : `${lines}\n`)
        }
        await file.write(']\n')
        await file.sync()
      } finally {
        await file.close()
      }
      await rename(temporary, options.path)
    } catch (error) {
      // Also when the rename fails (a folder, or a bind mount, in the state file's place): each
      // interval would otherwise leave a temporary the size of the store behind.
      await rm(temporary, { force: true })
      throw error
    }
    written = revision
    writtenStore = store
  }

  function save(always = false): Promise<void> {
    running ??= write(always).finally(() => {
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
      // A state file that does not exist yet is written even when nothing changed: after a
      // graceful stop it is always there.
      await save(!existsSync(options.path))
    },
  }
}

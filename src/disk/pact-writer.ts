import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type PactInteraction, type PactRecording, RECORDED_PROVIDER, recordingsToWrite } from '../recording/pact-recording.js'
import { apiError, FakeInputError } from '../service/errors.js'

/** What writing one recording did. */
export type WrittenPact = {
  readonly file: string
  /** Interactions in the file, those of earlier writes included. */
  readonly interactions: number
  /** What the app did that the spec does not promise, so was not recorded. */
  readonly warnings: readonly string[]
}

/**
 * Writes every pact recorded in this process (`createHandlers({ recordPact })`), one file per
 * consumer, `<dir>/<consumer>-animals-service.json`, and prints what was left out as warnings.
 * @example afterAll(() => writePacts())
 */
export async function writePacts(options: { readonly warn?: (text: string) => void } = {}): Promise<WrittenPact[]> {
  const warn = options.warn ?? ((text: string) => console.warn(text))
  const written: WrittenPact[] = []
  for (const { recording, dir } of recordingsToWrite()) {
    const result = await writePactFile(recording, dir)
    if (result.warnings.length > 0) {
      warn(`animals-mock: not recorded in ${result.file}, as the spec does not promise it:\n${result.warnings.map((line) => `  - ${line}`).join('\n')}`)
    }
    written.push(result)
  }
  return written
}

/**
 * Writes one recording into `dir`, merged with the file's interactions (vitest runs test files in
 * several workers, each recording its own part), sorted, with sorted keys: the same traffic gives
 * the same bytes. Delete the file to drop interactions no test makes any more. When the file is
 * not a pact, or its lock stays held, nothing recorded is lost: the recording is written beside it
 * and a `FakeInputError` (`pact_file_unusable`) says where, and why.
 */
export async function writePactFile(recording: PactRecording, dir: string): Promise<WrittenPact> {
  await mkdir(dir, { recursive: true })
  const file = join(dir, `${recording.consumer}-${RECORDED_PROVIDER}.json`)
  try {
    return await withLock(`${file}.lock`, async () => {
      const byDescription = new Map<string, PactInteraction>()
      for (const interaction of await existingInteractions(file)) byDescription.set(interaction.description, interaction)
      for (const interaction of recording.interactions()) byDescription.set(interaction.description, interaction)
      const interactions = await writeDocument(file, recording.consumer, [...byDescription.values()])
      return { file, interactions, warnings: recording.warnings() }
    })
  } catch (error) {
    if (!(error instanceof InTheWay)) throw error
    // The session's interactions go to a file of their own, so that a broken pact loses nothing.
    const kept = join(dir, `${recording.consumer}-${RECORDED_PROVIDER}.recorded-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    const interactions = await writeDocument(kept, recording.consumer, recording.interactions())
    throw new FakeInputError(apiError('pact_file_unusable', `${error.message}; the ${interactions} interaction(s) recorded were written to ${kept} instead.`))
  }
}

/** What stands in the way of the pact file: the file is no pact, or another writer's lock stays. */
class InTheWay extends Error {}

/** Writes a pact document of these interactions, sorted, through a new temporary file; resolves with their number. */
async function writeDocument(file: string, consumer: string, unsorted: readonly PactInteraction[]): Promise<number> {
  const interactions = [...unsorted].sort((a, b) => (a.description < b.description ? -1 : 1))
  const document = {
    consumer: { name: consumer },
    interactions,
    metadata: { 'animals-mock': { recordedFrom: 'the app tests against the fake' }, pactSpecification: { version: '4.0' } },
    provider: { name: RECORDED_PROVIDER },
  }
  // A new file of an unpredictable name: a link planted in a shared folder is never followed.
  const temporary = `${file}.${randomBytes(8).toString('hex')}.tmp`
  try {
    await writeFile(temporary, `${JSON.stringify(sortedKeys(document), null, 2)}\n`, { flag: 'wx' })
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  return interactions.length
}

async function existingInteractions(file: string): Promise<PactInteraction[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return []
  }
  let document: { interactions?: unknown } | null
  try {
    document = JSON.parse(text) as { interactions?: unknown } | null
  } catch (error) {
    throw new InTheWay(`The pact file ${file} is not JSON (${(error as Error).message}), so it was left as it is`)
  }
  return Array.isArray(document?.interactions) ? (document.interactions as PactInteraction[]) : []
}

/** How long a writer waits for another's lock before it gives up. */
const LOCK_WAIT_MS = 10_000

/**
 * Runs `work` holding a lock folder (mkdir is atomic) with the holder's process id inside, so
 * workers writing at once take turns, and a lock whose holder is no longer running (killed mid-
 * write) is taken over at once rather than waited for.
 */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      await mkdir(lock)
      await writeFile(join(lock, 'holder'), String(process.pid))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = await holderOf(lock)
      if (holder !== undefined && !isRunning(holder)) {
        await rm(lock, { recursive: true, force: true })
        continue
      }
      if (Date.now() > deadline) {
        const who = holder === undefined ? 'a writer that left no process id' : `process ${holder}, still running`
        throw new InTheWay(`${lock} has been held for 10 s by ${who}; if no test run is writing, remove it`)
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  try {
    return await work()
  } finally {
    await rm(lock, { recursive: true, force: true })
  }
}

async function holderOf(lock: string): Promise<number | undefined> {
  try {
    const pid = Number(await readFile(join(lock, 'holder'), 'utf8'))
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined // no holder written (yet, or by an older writer)
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, inner]) => [key, sortedKeys(inner)]))
}

import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type PactInteraction, type PactRecording, RECORDED_PROVIDER, recordingsToWrite } from '../contracts/pact-recording.js'

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
 * the same bytes. Delete the file to drop interactions no test makes any more.
 */
export async function writePactFile(recording: PactRecording, dir: string): Promise<WrittenPact> {
  await mkdir(dir, { recursive: true })
  const file = join(dir, `${recording.consumer}-${RECORDED_PROVIDER}.json`)
  return withLock(`${file}.lock`, async () => {
    const byDescription = new Map<string, PactInteraction>()
    for (const interaction of await existingInteractions(file)) byDescription.set(interaction.description, interaction)
    for (const interaction of recording.interactions()) byDescription.set(interaction.description, interaction)
    // Stryker disable next-line EqualityOperator: descriptions are map keys, never equal
    const interactions = [...byDescription.values()].sort((a, b) => (a.description < b.description ? -1 : 1))
    const document = {
      consumer: { name: recording.consumer },
      interactions,
      metadata: { 'animals-mock': { recordedFrom: 'the app tests against the fake' }, pactSpecification: { version: '4.0' } },
      provider: { name: RECORDED_PROVIDER },
    }
    // A new file of an unpredictable name: a link planted in a shared folder is never followed.
    const temporary = `${file}.${randomBytes(8).toString('hex')}.tmp`
    try {
      // Stryker disable next-line ObjectLiteral,StringLiteral: no file or link waits at a name of 16 random hex digits; wx makes sure (an emptied text is killed)
      await writeFile(temporary, `${JSON.stringify(sortedKeys(document), null, 2)}\n`, { flag: 'wx' })
      await rename(temporary, file)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
    return { file, interactions: interactions.length, warnings: recording.warnings() }
  })
}

async function existingInteractions(file: string): Promise<PactInteraction[]> {
  let text: string
  try {
    // Stryker disable next-line StringLiteral: without an encoding readFile gives a Buffer, which JSON.parse reads as the same UTF-8 text
    text = await readFile(file, 'utf8')
  } catch {
    return []
  }
  const document = JSON.parse(text) as { interactions?: unknown }
  return Array.isArray(document.interactions) ? (document.interactions as PactInteraction[]) : []
}

/** Runs `work` holding a lock folder (mkdir is atomic), so workers writing at once take turns. */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      await mkdir(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (Date.now() > deadline) throw new Error(`${lock} has been held for 10 s; if no test run is writing, a killed one left it: remove it`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  try {
    return await work()
  } finally {
    await rmdir(lock)
  }
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (typeof value !== 'object' || value === null) return value
  // Stryker disable next-line EqualityOperator: an object's keys are never equal
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, inner]) => [key, sortedKeys(inner)]))
}

import { apiError, FakeInputError } from '../service/errors.js'
import { fail, ok, type Result } from '../service/http.js'
import { compareInt64 } from '../service/int64.js'
import { parseJsonText } from '../service/json-body.js'
import { parsePet } from '../service/pets.js'
import type { Pet } from '../spec/animals-service.js'

/** The longest record a snapshot may hold, in bytes: an animal with the longest name and room to spare. */
export const MAX_RECORD_CHARS = 64 * 1024

/** Records read between pauses: a few milliseconds of work. */
const RECORDS_PER_CHUNK = 500
const MAX_DEPTH = 8

/** Options of `parseSnapshotGradually`. */
export type SnapshotReadOptions = {
  /** Called between chunks of records, to let other work run. */
  readonly pause: () => Promise<void>
  /** More records than this are refused as soon as they are counted. */
  readonly maxAnimals: number
}

/**
 * Reads a snapshot (a JSON array of Pet records, as UTF-8 bytes) one record at a time, pausing
 * between chunks, and checks each as `parseFixture` does: the first bad record ends the reading,
 * so a huge body of anything but animals is refused after its first element, no record is parsed
 * twice, and the body is never turned into one large string. JSON's structure is ASCII, so the
 * records are found in the bytes and only each record is decoded.
 */
export async function parseSnapshotGradually(text: Uint8Array, options: SnapshotReadOptions): Promise<Result<Pet[], string>> {
  let at = skipSpace(text, 0)
  if (text[at] !== 91) return fail('a snapshot must be a JSON array of animals')
  at = skipSpace(text, at + 1)
  const pets: Pet[] = []
  const utf8 = new TextDecoder('utf-8', { fatal: true })
  // A snapshot is written in ascending id order, where no id can repeat: the set of ids seen is
  // built only once the order breaks (a set of a million ids stalls the loop as it grows).
  let seen: Set<Pet['id']> | undefined
  if (text[at] === 93) return finish(text, at + 1, pets)
  for (;;) {
    const where = `record ${pets.length + 1} (index ${pets.length})`
    if (pets.length >= options.maxAnimals) return fail(`more than the maximum of ${options.maxAnimals} animals`)
    if (text[at] !== 123) return fail(`${where}: must be a JSON object`)
    const end = recordEnd(text, at)
    if (typeof end === 'string') return fail(`${where}: ${end}`)
    let record: unknown
    try {
      record = parseJsonText(utf8.decode(text.subarray(at, end)))
    } catch (error) {
      return fail(`${where}: not valid JSON (${error instanceof Error ? error.message : String(error)})`)
    }
    const pet = parsePet(record)
    if (!pet.ok) return fail(`${where}: ${pet.error.message}`)
    const previous = pets.at(-1)
    if (seen === undefined && previous !== undefined && compareInt64(previous.id, pet.value.id) >= 0) seen = new Set(pets.map((each) => each.id))
    if (seen !== undefined) {
      if (seen.has(pet.value.id)) return fail(`${where}: field 'id' repeats id ${pet.value.id}`)
      seen.add(pet.value.id)
    }
    pets.push(pet.value)
    if (pets.length % RECORDS_PER_CHUNK === 0) await options.pause()
    at = skipSpace(text, end)
    const next = text[at]
    if (next === 93) return finish(text, at + 1, pets)
    if (next !== 44) return fail(`after ${where}: expected , or ]`)
    at = skipSpace(text, at + 1)
  }
}

function finish(text: Uint8Array, at: number, pets: Pet[]): Result<Pet[], string> {
  return skipSpace(text, at) === text.length ? ok(pets) : fail('text after the closing ]')
}

/** Where the object starting at `start` ends (one past its `}`), or why it cannot be read. */
function recordEnd(text: Uint8Array, start: number): number | string {
  let depth = 0
  const limit = Math.min(text.length, start + MAX_RECORD_CHARS)
  for (let i = start; i < limit; i++) {
    const code = text[i]
    if (code === 34) {
      i += 1
      while (i < limit && text[i] !== 34) i += text[i] === 92 ? 2 : 1
    } else if (code === 123 || code === 91) {
      depth += 1
      if (depth > MAX_DEPTH) return `nested more than ${MAX_DEPTH} deep`
    } else if (code === 125 || code === 93) {
      depth -= 1
      if (depth === 0) return i + 1
    }
  }
  return limit === text.length ? 'not valid JSON (it does not end)' : `longer than ${MAX_RECORD_CHARS} bytes`
}

function skipSpace(text: Uint8Array, from: number): number {
  let at = from
  for (;;) {
    const code = text[at]
    if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return at
    at += 1
  }
}

/** The 400 of a snapshot that `parseSnapshotGradually` refused, saying why. */
export function invalidSnapshot(why: string): FakeInputError {
  return new FakeInputError(apiError('invalid_body', `The snapshot is not valid: ${why}.`))
}

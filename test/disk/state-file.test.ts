import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { joinFixture, parseFixture } from '../../src/fake/fixture.js'
import { createIdReservation, createStateWriter, ID_BLOCK, prepareStateFile, readStateFile, StateFileError } from '../../src/disk/state-file.js'
import type { Store } from '../../src/memory/animals.js'
import { createStore } from '../support/memory-animals.js'
import type { Int64, Pet } from '../../src/spec/animals-service.js'
import { escapedForRegExp } from '../support/expectations.js'

const INT64_MAX = 2n ** 63n - 1n
const folders: string[] = []

// An immutable folder refuses new files with EPERM, even to root; only root can make one.
const immutable = (() => {
  if (process.platform !== 'linux') return undefined
  const dir = mkdtempSync(join(tmpdir(), 'state-immutable-'))
  folders.push(dir)
  return spawnSync('chattr', ['+i', dir]).status === 0 ? dir : undefined
})()

afterAll(() => {
  if (immutable !== undefined) spawnSync('chattr', ['-i', immutable])
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** A new empty folder and the state file's path in it. */
function place(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'state-file-'))
  folders.push(dir)
  return { dir, file: join(dir, 'state.json') }
}

const pet = (id: Int64, name = `animal ${id}`): Pet => ({ id, name, categoryId: 1 })
const animals = (count: number): Pet[] => Array.from({ length: count }, (_, i) => pet(i + 1))
const saved = (file: string): Pet[] => {
  const pets = parseFixture(readFileSync(file, 'utf8'))
  if (!pets.ok) throw new Error(pets.error)
  return pets.value
}
const temporaries = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'))
const createdId = (store: Store, name = 'new'): Int64 => {
  const created = store.create({ name, categoryId: 1 })
  if (!created.ok) throw new Error(created.error.kind)
  return created.value.id
}

async function refusal(promise: Promise<unknown>): Promise<StateFileError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(StateFileError)
  return error as StateFileError
}

function refusalOf(work: () => unknown): StateFileError {
  try {
    work()
  } catch (error) {
    expect(error).toBeInstanceOf(StateFileError)
    return error as StateFileError
  }
  throw new Error('expected a StateFileError, nothing was thrown')
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`gave up waiting for ${what}`)
}

it('reads no animals when the state file does not exist yet', async () => {
  expect(await readStateFile(place().file)).toBeUndefined()
})

it('reads the animals of a state file, ids past 2^53 as exact integers', async () => {
  const { file } = place()
  writeFileSync(file, '[\n{"id":1,"name":"Rex","categoryId":2},\n{"id":9007199254740993,"name":"Big","categoryId":3,"status":"sold"}\n]\n')
  expect(await readStateFile(file)).toEqual([
    { id: 1, name: 'Rex', categoryId: 2 },
    { id: 9007199254740993n, name: 'Big', categoryId: 3, status: 'sold' },
  ])
})

it('refuses a corrupt state file, saying how to go on, and leaves it as it is', async () => {
  const { file } = place()
  writeFileSync(file, '{"animals":[]}')
  const error = await refusal(readStateFile(file))
  expect(error.name).toBe('StateFileError')
  expect(error.message).toBe(`state file ${file} is corrupt (a fixture must be a JSON array of animals); it was left as it is: move it away or fix it`)
  expect(readFileSync(file, 'utf8')).toBe('{"animals":[]}')
})

it('refuses a state file that cannot be read, with the reason (a folder in its place)', async () => {
  const { file } = place()
  mkdirSync(file)
  const error = await refusal(readStateFile(file))
  expect(error.message).toMatch(new RegExp(`^state file ${escapedForRegExp(file)}: EISDIR: `))
})

it('prepares a state file in a writable folder and leaves nothing behind', async () => {
  const { dir, file } = place()
  await prepareStateFile(file)
  expect(readdirSync(dir)).toEqual([])
})

it('removes the temporaries a killed process left of this state file and its id reservation, and no other file', async () => {
  const { dir, file } = place()
  const stale = ['state.json.0123456789abcdef.tmp', 'state.json.ids.fedcba9876543210.tmp']
  const kept = ['state.json', 'state.json.ids', 'state.json.bak', 'state.json.0123456789abcdef.tmp.old', 'state.jsonl.0123456789abcdef.tmp', 'other.json.0123456789abcdef.tmp', 'notes.tmp']
  for (const name of [...stale, ...kept]) writeFileSync(join(dir, name), name)
  await prepareStateFile(file)
  expect(readdirSync(dir).sort()).toEqual([...kept].sort())
  for (const name of kept) expect(readFileSync(join(dir, name), 'utf8')).toBe(name)
})

it('prepares the same state file from two starts at once, each clearing stale temporaries the other may already have removed', async () => {
  // Ten rounds of 200: the two nearly always reach some of the same files in the same moment.
  for (let round = 0; round < 10; round++) {
    const { dir, file } = place()
    for (let i = 0; i < 200; i++) writeFileSync(join(dir, `state.json.${i.toString(16).padStart(16, '0')}.tmp`), '')
    await Promise.all([prepareStateFile(file), prepareStateFile(file)])
    expect(readdirSync(dir)).toEqual([])
  }
})

it('refuses a state file in a folder that does not exist, naming the folder', async () => {
  const { dir } = place()
  const file = join(dir, 'missing', 'state.json')
  const error = await refusal(prepareStateFile(file))
  expect(error.message).toBe(`cannot write the state file ${file}: the folder ${join(dir, 'missing')} does not exist`)
})

it('refuses a state file whose folder is a file, with the system reason', async () => {
  const { dir } = place()
  writeFileSync(join(dir, 'a-file'), 'kept')
  const file = join(dir, 'a-file', 'state.json')
  const error = await refusal(prepareStateFile(file))
  expect(error.message).toMatch(new RegExp(`^cannot write the state file ${escapedForRegExp(file)}: ENOTDIR: not a directory, open '${escapedForRegExp(file)}\\.[0-9a-f]{16}\\.tmp'$`))
  expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('kept')
})

// sysfs lets no one create files, not even root: EACCES on Linux.
it.runIf(process.platform === 'linux')('refuses a state file in a folder it may not write in (EACCES)', async () => {
  const error = await refusal(prepareStateFile('/sys/state.json'))
  expect(error.message).toBe('cannot write the state file /sys/state.json: no permission to write in /sys')
})

it.runIf(immutable !== undefined)('refuses a state file in an immutable folder (EPERM) as one it may not write in', async () => {
  const dir = immutable ?? ''
  const error = await refusal(prepareStateFile(join(dir, 'state.json')))
  expect(error.message).toBe(`cannot write the state file ${join(dir, 'state.json')}: no permission to write in ${dir}`)
})

it('starts ids at 1 without a reservation file, and writes none before an id is used', () => {
  const { dir, file } = place()
  expect(createIdReservation(file).floor).toBe(1)
  expect(readdirSync(dir)).toEqual([])
})

it('reserves a block of ids on disk, synced, before handing out the first', () => {
  const { dir, file } = place()
  const ids = createIdReservation(file)
  ids.use(1)
  expect(readFileSync(`${file}.ids`, 'utf8')).toBe(`{"next":"${1 + ID_BLOCK}"}\n`)
  expect(ids.floor).toBe(1 + ID_BLOCK)
  expect(readdirSync(dir)).toEqual(['state.json.ids'])
})

it('writes the next block exactly when an id reaches the reserved ceiling, not before', () => {
  const { file } = place()
  const ids = createIdReservation(file)
  ids.use(1)
  ids.use(ID_BLOCK)
  expect(readFileSync(`${file}.ids`, 'utf8')).toBe('{"next":"10001"}\n')
  ids.use(ID_BLOCK + 1)
  expect(readFileSync(`${file}.ids`, 'utf8')).toBe('{"next":"20001"}\n')
  expect(ids.floor).toBe(20_001)
})

it('reserves a block after the id used when the store starts above the ceiling', () => {
  const { file } = place()
  writeFileSync(`${file}.ids`, '{"next":"10001"}\n')
  const ids = createIdReservation(file)
  ids.use(50_000)
  expect(readFileSync(`${file}.ids`, 'utf8')).toBe('{"next":"60000"}\n')
  expect(ids.floor).toBe(60_000)
})

/** The files of `dir` this process holds open (Linux), to check that none is left open. */
function openIn(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(join('/proc/self/fd', fd))
      return target.startsWith(dir) ? [target] : []
    } catch {
      return []
    }
  })
}

it.runIf(process.platform === 'linux')('leaves no file of the folder open after reserving or saving', async () => {
  const { dir, file } = place()
  createIdReservation(file).use(1)
  expect(openIn(dir)).toEqual([])
  const store = createStore()
  createdId(store)
  await writerOver(file, () => store).save()
  expect(openIn(dir)).toEqual([])
})

it('never hands out an id again after a restart, even when the state file lost the last animals', () => {
  const { file } = place()
  const fixture = animals(3)
  const first = createStore({ initial: fixture, ids: createIdReservation(file) })
  const given = [createdId(first), createdId(first)]
  expect(given).toEqual([4, 5])
  // Killed before the state file was written: the restart starts from the fixture again.
  const second = createStore({ initial: fixture, ids: createIdReservation(file) })
  expect(createdId(second)).toBe(4 + ID_BLOCK)
})

it('never hands out an id below the reservation, not even after a reset', () => {
  const { file } = place()
  const store = createStore({ initial: animals(2), ids: createIdReservation(file) })
  expect(createdId(store)).toBe(3)
  store.reset()
  expect(createdId(store)).toBe(3 + ID_BLOCK)
})

it('reads and writes reservations past 2^53 as exact integers', () => {
  const { file } = place()
  writeFileSync(`${file}.ids`, '{"next":"9007199254740993"}\n')
  const ids = createIdReservation(file)
  expect(ids.floor).toBe(9007199254740993n)
  ids.use(9007199254740993n)
  expect(readFileSync(`${file}.ids`, 'utf8')).toBe('{"next":"9007199254750993"}\n')
  expect(createIdReservation(file).floor).toBe(9007199254750993n)
})

it('reads a reservation written as a plain number', () => {
  const { file } = place()
  writeFileSync(`${file}.ids`, '{"next":12}')
  expect(createIdReservation(file).floor).toBe(12)
})

it('reserves up to the largest 64-bit id exactly when a whole block still fits', () => {
  const { file } = place()
  writeFileSync(`${file}.ids`, `{"next":"${INT64_MAX - 10_000n}"}\n`)
  createIdReservation(file).use(INT64_MAX - 10_000n)
  expect(readFileSync(`${file}.ids`, 'utf8')).toBe(`{"next":"${INT64_MAX}"}\n`)
})

it('never hands out an id twice at the top of the 64-bit range, across restarts and resets', () => {
  const { file } = place()
  writeFileSync(`${file}.ids`, `{"next":"${INT64_MAX - 2n}"}\n`)
  const first = createStore({ ids: createIdReservation(file) })
  expect([createdId(first), createdId(first)]).toEqual([INT64_MAX - 2n, INT64_MAX - 1n])
  expect(readFileSync(`${file}.ids`, 'utf8')).toBe(`{"next":"${INT64_MAX}"}\n`)
  // No id comes after the largest to write as the next one, so it cannot be reserved ahead of use.
  expect(refusalOf(() => createIdReservation(file).use(INT64_MAX)).message).toBe(`id reservation ${file}.ids: no id follows ${INT64_MAX}, so it cannot be reserved`)
  expect(readFileSync(`${file}.ids`, 'utf8')).toBe(`{"next":"${INT64_MAX}"}\n`)
  const full = { ok: false, error: { kind: 'not_durable' } }
  expect(first.create({ name: 'the largest id', categoryId: 1 })).toMatchObject(full)
  // Killed before the state file was written: the restart starts from no animals again.
  const second = createStore({ ids: createIdReservation(file) })
  expect(second.create({ name: 'after the restart', categoryId: 1 })).toMatchObject(full)
  second.reset()
  expect(second.create({ name: 'after a reset', categoryId: 1 })).toMatchObject(full)
})

it('refuses a corrupt id reservation and leaves it as it is', () => {
  const { file } = place()
  for (const text of ['', 'not json', 'null', '{}', '{"next":null}', '{"next":"ten"}', '{"next":1.5}', '{"next":"99999999999999999999"}']) {
    writeFileSync(`${file}.ids`, text)
    const error = refusalOf(() => createIdReservation(file))
    expect(error.message, text).toBe(`id reservation ${file}.ids is corrupt; it was left as it is: move it away or fix it`)
    expect(readFileSync(`${file}.ids`, 'utf8')).toBe(text)
  }
})

it('refuses an id reservation that cannot be read, with the reason (a folder in its place)', () => {
  const { file } = place()
  mkdirSync(`${file}.ids`)
  expect(refusalOf(() => createIdReservation(file)).message).toMatch(new RegExp(`^id reservation ${escapedForRegExp(file)}\\.ids: EISDIR: `))
})

it('refuses to hand out an id when the reservation cannot be written, and the store stores nothing', () => {
  const { dir, file } = place()
  const store = createStore({ initial: animals(1), ids: createIdReservation(file) })
  rmSync(dir, { recursive: true })
  expect(store.create({ name: 'unreserved', categoryId: 1 })).toEqual({ ok: false, error: { kind: 'not_durable', adding: 1 } })
  expect(store.size).toBe(1)
})

function writerOver(file: string, store: () => Store, intervalMs = 3_600_000, onError: (error: unknown) => void = () => undefined) {
  return createStateWriter({ path: file, store, intervalMs, onError })
}

it('saves nothing while nothing changed since the writer was made', async () => {
  const { dir, file } = place()
  const store = createStore({ initial: animals(2) })
  const writer = writerOver(file, () => store)
  await writer.save()
  expect(readdirSync(dir)).toEqual([])
})

it('saves the animals after a change, one per line between brackets, with no temporary left', async () => {
  const { dir, file } = place()
  const store = createStore({ initial: [pet(1, 'Rex'), pet(9007199254740993n, 'Big')] })
  const writer = writerOver(file, () => store)
  createdId(store, 'Newest')
  await writer.save()
  expect(readFileSync(file, 'utf8')).toBe(
    '[\n{"id":1,"name":"Rex","categoryId":1},\n{"id":9007199254740993,"name":"Big","categoryId":1},\n{"id":9007199254740994,"name":"Newest","categoryId":1}\n]\n',
  )
  expect(readdirSync(dir)).toEqual(['state.json'])
})

it('saves whatever the store holds, however many animals, as a fixture would hold them (the 20,000 chunk boundary)', async () => {
  for (const count of [1, 19_999, 20_000, 20_001, 40_000]) {
    const { file } = place()
    const store = createStore()
    const writer = writerOver(file, () => store)
    store.replace(animals(count))
    await writer.save()
    expect(readFileSync(file, 'utf8'), `${count} animals`).toBe(joinFixture(store.texts()))
    expect(saved(file)).toHaveLength(count)
  }
})

it('saves an empty store as an empty array', async () => {
  const { file } = place()
  const store = createStore()
  await writerOver(file, () => store).save(true)
  expect(readFileSync(file, 'utf8')).toBe('[\n]\n')
  expect(saved(file)).toEqual([])
})

it('does not write the file again when saved twice without a change in between', async () => {
  const { file } = place()
  const store = createStore()
  const writer = writerOver(file, () => store)
  createdId(store)
  await writer.save()
  writeFileSync(file, 'edited since')
  await writer.save()
  expect(readFileSync(file, 'utf8')).toBe('edited since')
  createdId(store)
  await writer.save()
  expect(saved(file)).toHaveLength(2)
})

it('writes each change in turn: saves one after another all reach the file', async () => {
  const { file } = place()
  const store = createStore()
  const writer = writerOver(file, () => store)
  for (let i = 1; i <= 3; i++) {
    createdId(store)
    await writer.save()
    expect(saved(file)).toHaveLength(i)
  }
})

it('saves the store the getter gives now, even one of the same revision as the last saved (a reset replaced it)', async () => {
  const { file } = place()
  const before = createStore({ initial: [pet(1, 'Before')] })
  const after = createStore({ initial: [pet(1, 'After')] })
  expect(after.revision).toBe(before.revision)
  let current = before
  const writer = writerOver(file, () => current)
  current = after
  await writer.save()
  expect(saved(file)).toEqual([pet(1, 'After')])
})

it('saves on its interval when something changed, and no more after stop()', async () => {
  const { file } = place()
  const store = createStore()
  const writer = writerOver(file, () => store, 10)
  createdId(store, 'first')
  await until(() => existsSync(file), 'the interval write')
  expect(saved(file).map((each) => each.name)).toEqual(['first'])
  await writer.stop()
  createdId(store, 'after the stop')
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(saved(file).map((each) => each.name)).toEqual(['first'])
})

it('reports a failed interval write to onError and keeps saving on the next ones', async () => {
  const { dir, file } = place()
  const errors: unknown[] = []
  const store = createStore()
  const writer = writerOver(file, () => store, 10, (error) => errors.push(error))
  rmSync(dir, { recursive: true })
  createdId(store)
  await until(() => errors.length > 0, 'a failed write')
  expect(errors[0]).toMatchObject({ code: 'ENOENT' })
  mkdirSync(dir)
  await until(() => existsSync(file), 'a write once the folder is back')
  await writer.stop()
  expect(saved(file)).toHaveLength(1)
})

it('writes the state file on stop() when it does not exist yet, even though nothing changed', async () => {
  const { file } = place()
  const store = createStore({ initial: animals(2) })
  await writerOver(file, () => store).stop()
  expect(saved(file)).toEqual(animals(2))
})

it('leaves an existing state file alone on stop() when nothing changed', async () => {
  const { file } = place()
  writeFileSync(file, 'as it was')
  const store = createStore({ initial: animals(2) })
  await writerOver(file, () => store).stop()
  expect(readFileSync(file, 'utf8')).toBe('as it was')
})

it('writes the last change on stop(), after a save in progress', async () => {
  const { file } = place()
  const store = createStore()
  const writer = writerOver(file, () => store)
  createdId(store, 'one')
  const inProgress = writer.save()
  createdId(store, 'two')
  await writer.stop()
  await inProgress
  expect(saved(file).map((each) => each.name)).toEqual(['one', 'two'])
})

it('refuses a failed write, leaving no temporary behind and the folder in place of the state file as it was', async () => {
  const { dir, file } = place()
  mkdirSync(file)
  writeFileSync(join(file, 'inside'), 'kept')
  const store = createStore()
  const writer = writerOver(file, () => store)
  createdId(store)
  await expect(writer.save()).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) })
  expect(temporaries(dir)).toEqual([])
  expect(readFileSync(join(file, 'inside'), 'utf8')).toBe('kept')
  // It tries again on the next save: the change was not taken as written.
  rmSync(file, { recursive: true })
  await writer.save()
  expect(saved(file)).toHaveLength(1)
})

describe('the open files of a state writer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-descriptors-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** The files of `folder` this process holds open, as Linux lists them. */
  function openIn(folder: string): string[] {
    return readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        const target = readlinkSync(`/proc/self/fd/${fd}`)
        return target.startsWith(`${folder}/`) ? [target] : []
      } catch {
        return [] // closed since it was listed
      }
    })
  }

  // A fake that saves its state every few seconds for days must not keep a descriptor per write.
  it.skipIf(process.platform !== 'linux')('holds no file of the state folder open once a write is done', async () => {
    const store = createStore({ initial: [{ id: 1n, name: 'Rex', categoryId: 1 }] })
    const errors: unknown[] = []
    const writer = createStateWriter({ path: join(dir, 'state.json'), store: () => store, intervalMs: 600_000, onError: (error) => errors.push(error) })
    await writer.save(true)
    await writer.save(true)
    expect(openIn(dir)).toEqual([])
    await writer.stop()
    expect(openIn(dir)).toEqual([])
    expect(errors).toEqual([])
    expect(readdirSync(dir)).toEqual(['state.json'])
  })
})

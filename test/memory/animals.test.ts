import { expect, it } from 'vitest'
import { createBudget, DEFAULT_BUDGET_LIMITS } from '../../src/service/budget.js'
import { refusalError } from '../../src/fake/refusals.js'
import type { Refusal } from '../../src/store/port.js'
import type { Result } from '../../src/service/http.js'

/** What the fake answers for a refusal, within `limits`. */
const messageOf = (result: Result<unknown, Refusal>, limits = DEFAULT_BUDGET_LIMITS): string => (result.ok ? '' : refusalError(result.error, limits).message)
import { createStore } from '../support/memory-animals.js'
import { toPetJson } from '../../src/service/pets.js'
import { LIMIT, type Pet, PET_STATUSES, type PetStatus } from '../../src/spec/animals-service.js'

const rex: Pet = { id: 10, name: 'Rex', categoryId: 1, status: 'sold' }
const tom: Pet = { id: 4, name: 'Tom', categoryId: 2 }

it('assigns ids after the highest seeded id, in order, whatever the seed order', () => {
  const store = createStore({ initial: [rex, tom] })
  expect(store.all().map((pet) => pet.id)).toEqual([4, 10])
  const created = store.create({ name: 'New', categoryId: 3 })
  expect(created.ok && created.value.id).toBe(11)
})

it('starts at 1 when empty or when every seeded id is negative', () => {
  expect(createStore().create({ name: 'a', categoryId: 1 })).toMatchObject({ ok: true, value: { id: 1 } })
  const negative = createStore({ initial: [{ ...tom, id: -5 }] })
  expect(negative.create({ name: 'a', categoryId: 1 })).toMatchObject({ ok: true, value: { id: 1 } })
})

it('continues past 2^53 with exact ids and refuses at the int64 maximum', () => {
  const store = createStore({ initial: [{ ...tom, id: 9007199254740991 }] })
  const next = store.create({ name: 'a', categoryId: 1 })
  expect(next.ok && next.value.id).toBe(9007199254740992n)
  expect(next.ok && next.value.json).toContain('"id":9007199254740992')
  expect(store.get(9007199254740992n)).toBe('{"id":9007199254740992,"name":"a","categoryId":1}')
  expect(store.all().at(-1)).toEqual({ id: 9007199254740992n, name: 'a', categoryId: 1 })
  const full = createStore({ initial: [{ ...tom, id: 9223372036854775807n }] })
  expect(messageOf(full.create({ name: 'a', categoryId: 1 }))).toBe('No 64-bit ids are left to assign.')
})

it('refuses past its budget, exactly at the cap, and stores nothing', () => {
  const budget = createBudget({ maxAnimals: 3 })
  const store = createStore({ initial: [rex, tom], budget })
  expect(store.create({ name: 'a', categoryId: 1 }).ok).toBe(true)
  const refused = store.create({ name: 'b', categoryId: 1 })
  expect(messageOf(refused, budget.limits)).toBe('The fake has no room for 1 more animal: it holds 3 of at most 3 animals (--max-animals, every store together).')
  expect(store.size).toBe(3)
})

it('shares one budget between stores, and gives the room back when a store lets go or resets', () => {
  const budget = createBudget({ maxAnimals: 5 })
  const first = createStore({ initial: [rex, tom], budget })
  const second = createStore({ initial: [rex, tom], budget })
  expect(budget.used.animals).toBe(4)
  expect(first.create({ name: 'a', categoryId: 1 }).ok).toBe(true)
  expect(second.create({ name: 'b', categoryId: 1 }).ok).toBe(false)
  first.reset()
  expect(second.create({ name: 'b', categoryId: 1 }).ok).toBe(true)
  second.release()
  expect(budget.used.animals).toBe(2)
  expect(messageOf(first.replace([101, 102, 103, 104, 105, 106].map((id) => ({ ...rex, id }))), budget.limits)).toMatch(/no room for 4 more/)
  expect(first.size).toBe(2)
})

it('counts the characters of the text it makes against the budget, and caches lists only while the cache budget lasts', () => {
  const budget = createBudget({ maxTextChars: 100, maxCacheChars: 60 })
  const store = createStore({ initial: [rex, tom], budget })
  expect(store.create({ name: 'x'.repeat(40), categoryId: 1 }).ok).toBe(true)
  expect(store.create({ name: 'y'.repeat(40), categoryId: 1 })).toMatchObject({ ok: false, error: { kind: 'no_room' } })
  const one = store.listJson(1)
  expect(budget.used.cacheChars).toBe(one.length)
  store.listJson(3) // longer than the room left: built, not kept
  expect(budget.used.cacheChars).toBe(one.length)
  store.create({ name: 'z', categoryId: 1 })
  store.listJson(1)
  expect(budget.used.cacheChars).toBe(store.listJson(1).length)
})

it('lists by status in id order, capped at limit, without exposing its own arrays', () => {
  const store = createStore({ initial: [rex, tom, { ...rex, id: 2 }, { ...rex, id: 7, status: 'pending' }] })
  const ids = (texts: readonly string[]) => texts.map((text) => (JSON.parse(text) as Pet).id)
  expect(ids(store.list(10, 'sold'))).toEqual([2, 10])
  expect(ids(store.list(1, 'sold'))).toEqual([2])
  expect(store.listJson(1, 'sold')).toBe(`[${store.get(2)}]`)
  const listed = store.list(10) as unknown[]
  listed.length = 0
  expect(store.list(10)).toHaveLength(4)
})

it('hands out frozen animals, so a caller cannot change what is stored', () => {
  const store = createStore({ initial: [rex] })
  const pet = store.all()[0] as Pet & { name: string }
  expect(() => {
    pet.name = 'Changed'
  }).toThrow(TypeError)
  expect(store.get(10)).toContain('"Rex"')
  const created = store.create({ name: 'New', categoryId: 1 })
  expect(created.ok && created.value).toEqual({ id: 11, json: '{"id":11,"name":"New","categoryId":1}' })
})

it('rebuilds a list answer only after the store changed', () => {
  const store = createStore({ initial: [rex, tom] })
  const first = store.listJson(20)
  expect(store.listJson(20)).toBe(first)
  store.create({ name: 'New', categoryId: 1 })
  expect(JSON.parse(store.listJson(20))).toHaveLength(3)
  store.reset()
  expect(store.listJson(20)).toBe(first)
})

it('caches each list answer under its own limit and status, huge limits included', () => {
  const store = createStore({ initial: [rex, tom, { ...rex, id: 2 }, { ...rex, id: 7, status: 'pending' }, { ...rex, id: 3, status: 'available' }] })
  const statuses = [undefined, 'available', 'pending', 'sold'] as const
  const limits = [1, 2, 3, 2 ** 40, Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER]
  for (let pass = 0; pass < 2; pass++) {
    for (const limit of limits) {
      for (const status of statuses) expect(store.listJson(limit, status)).toBe(`[${store.list(limit, status).join(',')}]`)
    }
  }
})

it('resets to its initial animals and counter, and refuses duplicate ids on replace', () => {
  const store = createStore({ initial: [rex] })
  store.create({ name: 'a', categoryId: 1 })
  store.reset()
  expect(store.all()).toEqual([rex])
  expect(store.create({ name: 'b', categoryId: 1 })).toMatchObject({ ok: true, value: { id: 11 } })
  expect(() => store.replace([rex, rex])).toThrow(/duplicate id 10/)
})

it('finds animals by id whether ids run without gaps or not, and keeps finding them after a gap appears', () => {
  const dense = createStore({ initial: [1, 2, 3].map((id) => ({ ...tom, id })) })
  dense.create({ name: 'Four', categoryId: 1 })
  expect([1, 2, 3, 4].map((id) => dense.get(id) !== undefined)).toEqual([true, true, true, true])
  expect([0, 5, -1, 2.5, 4n].map((id) => dense.get(id))).toEqual([undefined, undefined, undefined, undefined, undefined])
  const sparse = createStore({ initial: [3, 7, 20].map((id) => ({ ...tom, id })) })
  sparse.create({ name: 'After', categoryId: 1 })
  expect([3, 7, 20, 21].map((id) => JSON.parse(sparse.get(id) ?? 'null')?.id)).toEqual([3, 7, 20, 21])
  expect(sparse.get(4)).toBeUndefined()
  const big = createStore({ initial: [{ ...tom, id: 9007199254740993n }] })
  big.create({ name: 'Next', categoryId: 1 })
  expect(JSON.parse(big.get(9007199254740994n) ?? 'null')?.name).toBe('Next')
})

it('loads animals gradually, out of order and with gaps, pausing between chunks, as replace would', async () => {
  const statuses = ['available', 'pending', 'sold', undefined] as const
  // 4,500 animals with odd ids, in descending order: sorted, indexed by id (not dense), listed by status.
  const pets: Pet[] = Array.from({ length: 4500 }, (_, i) => {
    const status = statuses[i % 4]
    const id = 2 * (4500 - i) + 1
    return status === undefined ? { id, name: `p${id}`, categoryId: 1 } : { id, name: `p${id}`, categoryId: 1, status }
  })
  const gradual = createStore()
  let pauses = 0
  await gradual.replaceGradually(pets, async () => {
    pauses += 1
  })
  const whole = createStore({ initial: pets })
  expect(gradual.all()).toEqual(whole.all())
  expect(gradual.all()[0]?.id).toBe(3)
  for (const status of ['available', 'pending', 'sold'] as const) expect(gradual.listJson(100, status)).toBe(whole.listJson(100, status))
  expect(gradual.get(4001)).toBe(whole.get(4001))
  expect(gradual.get(4002)).toBeUndefined()
  expect(gradual.counts()).toEqual(whole.counts())
  expect(pauses).toBeGreaterThanOrEqual(4)
  const created = gradual.create({ name: 'next', categoryId: 1 })
  expect(created.ok && created.value.id).toBe(9002)
})

it('refuses a gradual load with a repeated id and keeps the animals it had', async () => {
  const store = createStore({ initial: [rex] })
  await expect(store.replaceGradually([tom, { ...tom, name: 'again' }], async () => {})).rejects.toThrow('duplicate id 4')
  expect(store.all()).toEqual([rex])
})

it('hands out no id below the reservation floor, even after a reset, and stores nothing when an id cannot be reserved', () => {
  const used: number[] = []
  let failing = false
  const ids = {
    floor: 500,
    use(id: number | bigint) {
      if (failing) throw new Error('disk full')
      used.push(Number(id))
    },
  }
  const budget = createBudget({ maxAnimals: 100, maxTextChars: 100_000 })
  const store = createStore({ initial: [rex, tom], ids, budget })
  const first = store.create({ name: 'a', categoryId: 1 })
  expect(first.ok && first.value.id).toBe(500)
  store.reset()
  const afterReset = store.create({ name: 'b', categoryId: 1 })
  expect(afterReset.ok && afterReset.value.id).toBeGreaterThanOrEqual(500)
  failing = true
  const refused = store.create({ name: 'c', categoryId: 1 })
  expect(refused).toEqual({ ok: false, error: { kind: 'not_durable', adding: 1 } })
  expect(messageOf(refused)).toBe('The id could not be reserved on disk (see the server log), so the animal was not stored.')
  expect(store.size).toBe(3)
  expect(budget.used.animals).toBe(3) // the refused animal's room is given back
  failing = false
  const next = store.create({ name: 'd', categoryId: 1 })
  expect(next.ok && next.value.id).toBe(afterReset.ok ? Number(afterReset.value.id) + 1 : undefined)
  expect(used.at(-1)).toBe(next.ok ? next.value.id : undefined)
  // A floor below the highest id changes nothing.
  const low = createStore({ initial: [rex], ids: { floor: 5, use() {} } })
  const above = low.create({ name: 'e', categoryId: 1 })
  expect(above.ok && above.value.id).toBe(11)
})

it('says which limit is full: the number of animals, or the characters of their text', () => {
  const byCount = createStore({ budget: createBudget({ maxAnimals: 1, maxTextChars: 1000 }) })
  expect(byCount.create({ name: 'a', categoryId: 1 }).ok).toBe(true)
  const countFull = byCount.create({ name: 'b', categoryId: 1 })
  expect(messageOf(countFull, { ...DEFAULT_BUDGET_LIMITS, maxAnimals: 1, maxTextChars: 1000 })).toBe(
    'The fake has no room for 1 more animal: it holds 1 of at most 1 animals (--max-animals, every store together).',
  )
  // The second animal would fill the count exactly, which is allowed: the text is what is full.
  const byText = createStore({ budget: createBudget({ maxAnimals: 2, maxTextChars: 60 }) })
  expect(byText.create({ name: 'a', categoryId: 1 }).ok).toBe(true)
  const textFull = byText.create({ name: 'a much longer name than the budget allows', categoryId: 1 })
  expect(messageOf(textFull, { ...DEFAULT_BUDGET_LIMITS, maxAnimals: 2, maxTextChars: 60 })).toMatch(/^The fake has no room for 1 more animal: the animals' text would pass 60 characters \(\d+ used, every store together\)\.$/)
})

const numbered = (count: number, idOf: (i: number) => number | bigint) =>
  Array.from({ length: count }, (_, i): Pet => ({ id: idOf(i), name: `p${i}`, categoryId: 1 }))

it('pauses a gradual load once per chunk of each pass: the loop is never held for long', async () => {
  const pausesFor = async (pets: Pet[]) => {
    let pauses = 0
    await createStore().replaceGradually(pets, async () => {
      pauses += 1
    })
    return pauses
  }
  // 40,001 animals: the order check pauses every 20,000 (2); preparing and indexing pause before
  // each chunk of 2,000 but the first (20 each); six lists are joined after a pause each.
  expect(await pausesFor(numbered(40_001, (i) => i + 1))).toBe(2 + 20 + 20 + 6)
  // Ids with gaps also fill the id map, pausing every 2,000 (20 more).
  expect(await pausesFor(numbered(40_001, (i) => 2 * i + 1))).toBe(2 + 20 + 20 + 6 + 20)
  expect(await pausesFor(numbered(2_000, (i) => i + 1))).toBe(6)
})

it('loads 64-bit ids past 2^53 gradually', async () => {
  const store = createStore()
  await store.replaceGradually(numbered(3, (i) => 9007199254740993n + BigInt(i)), async () => {})
  expect(JSON.parse(store.get(9007199254740994n) ?? 'null')).toMatchObject({ name: 'p1' })
  expect(store.get(1)).toBeUndefined()
})

it('counts the text of every animal it holds against the budget, and gives it back', async () => {
  const budget = createBudget()
  const store = createStore({ budget })
  const pets = numbered(2_500, (i) => i + 1)
  const textChars = (some: Pet[]) => some.reduce((sum, pet) => sum + JSON.stringify(pet).length, 0)
  await store.replaceGradually(pets, async () => {})
  expect(budget.used).toMatchObject({ animals: 2_500, chars: textChars(pets) })
  store.replace(pets.slice(0, 10))
  expect(budget.used).toMatchObject({ animals: 10, chars: textChars(pets.slice(0, 10)) })
  const created = store.create({ name: 'new', categoryId: 1 })
  expect(budget.used.animals).toBe(11)
  store.release()
  expect(budget.used).toMatchObject({ animals: 0, chars: 0 })
  expect(created.ok).toBe(true)
})

it('keeps each list answer under its own limit and filter, and its room in the cache budget while it is current', () => {
  const budget = createBudget()
  const store = createStore({ budget, initial: [...numbered(6, (i) => i + 1), ...numbered(6, (i) => i + 7).map((pet): Pet => ({ ...pet, status: 'available' }))] })
  const all8 = store.listJson(8)
  const available4 = store.listJson(4, 'available')
  expect(JSON.parse(available4).map((pet: Pet) => pet.id)).toEqual([7, 8, 9, 10])
  expect(JSON.parse(all8).map((pet: Pet) => pet.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  expect(budget.used.cacheChars).toBe(all8.length + available4.length)
  const revision = store.revision
  store.create({ name: 'n', categoryId: 1 })
  expect(store.revision).toBe(revision + 1)
  const after = store.listJson(100)
  expect(budget.used.cacheChars).toBe(after.length)
  store.release()
  expect(budget.used.cacheChars).toBe(0)
  expect(store.revision).toBe(revision + 2)
})

it('says so when no 64-bit id is left to assign', () => {
  const store = createStore({ initial: [{ id: 9223372036854775807n, name: 'last', categoryId: 1 }] })
  expect(store.create({ name: 'one more', categoryId: 1 })).toEqual({ ok: false, error: { kind: 'no_ids' } })
})

it('finds every animal after ids that ran without gaps meet a gap', () => {
  const store = createStore({ initial: numbered(3, (i) => i + 1) })
  const created = store.create({ name: 'new', categoryId: 1 })
  expect(created.ok && created.value.id).toBe(4)
  store.replace([...numbered(3, (i) => i + 1), ...numbered(1, () => 7)])
  expect([1, 2, 3, 7, 4].map((id) => JSON.parse(store.get(id) ?? 'null')?.id ?? null)).toEqual([1, 2, 3, 7, null])
  expect(store.texts().map((text) => JSON.parse(text).id)).toEqual([1, 2, 3, 7])
})

it('hands out copies of its texts, and counts a replacement as a change', () => {
  const store = createStore({ initial: [rex, tom] })
  ;(store.texts() as string[]).length = 0
  expect(store.size).toBe(2)
  const revision = store.revision
  store.replace([rex])
  expect(store.revision).toBe(revision + 1)
})

it('knows no id is left even with a reservation floor', () => {
  const store = createStore({ initial: [{ id: 9223372036854775807n, name: 'last', categoryId: 1 }], ids: { floor: 5, use() {} } })
  expect(store.create({ name: 'one more', categoryId: 1 })).toEqual({ ok: false, error: { kind: 'no_ids' } })
})

it('creates n animals in one call, their ids made durable in one reservation first; none past the budget, a failed reservation or the int64 maximum', () => {
  const used: (number | bigint)[] = []
  let failing = false
  const ids = { floor: 1, use: (id: number | bigint) => (failing ? (() => { throw new Error('disk full') })() : void used.push(id)) }
  const budget = createBudget({ maxAnimals: 6 })
  const store = createStore({ initial: [rex, tom], ids, budget })
  expect(store.createMany([{ name: 'a', categoryId: 1 }])).toEqual({ ok: true, value: { firstId: 11, lastId: 11 } })
  expect(store.createMany([{ name: 'b', categoryId: 1, status: 'sold' }, { name: 'c', categoryId: 2 }])).toEqual({ ok: true, value: { firstId: 12, lastId: 13 } })
  // One write each: the id of one animal; the last id of several, reserved for all, then used.
  expect(used).toEqual([11, 13, 13])
  expect(store.listJson(100, 'sold')).toBe(`[${store.get(10)},${store.get(12)}]`)
  expect(store.createMany([{ name: 'd', categoryId: 1 }, { name: 'e', categoryId: 1 }])).toEqual({ ok: false, error: { kind: 'no_room', adding: 2, held: { animals: 5, chars: expect.any(Number) } } })
  failing = true
  expect(store.createMany([{ name: 'f', categoryId: 1 }])).toEqual({ ok: false, error: { kind: 'not_durable', adding: 1 } })
  expect(store.size).toBe(5)
  expect(budget.used.animals).toBe(5)
  const top = createStore({ initial: [{ id: 9223372036854775806n, name: 'Top', categoryId: 1 }] })
  expect(top.createMany([{ name: 'x', categoryId: 1 }, { name: 'y', categoryId: 1 }])).toEqual({ ok: false, error: { kind: 'no_ids' } })
  expect(top.createMany([{ name: 'x', categoryId: 1 }])).toEqual({ ok: true, value: { firstId: 9223372036854775807n, lastId: 9223372036854775807n } })
})

// The duplicate check compares each id with the one before it. The first animal has none before
// it, so an id of 0 in first place is where a check that forgot that would refuse a good set.
it('keeps an animal whose id is 0 when it comes first, and still refuses 0 twice', () => {
  const zero: Pet = { id: 0, name: 'Zero', categoryId: 1 }
  const one: Pet = { id: 1, name: 'One', categoryId: 1 }
  const store = createStore({ initial: [one, zero] })
  expect(store.all()).toEqual([zero, one])
  expect(store.create({ name: 'Two', categoryId: 1 })).toMatchObject({ ok: true, value: { id: 2 } })
  expect(() => createStore({ initial: [zero, zero] })).toThrow(/duplicate id 0/)
})

// The next version of the spec may add a status: the store takes its statuses from a list, so one
// more in PET_STATUSES is one more list, count and cache of its own, with no other change.
it('runs over a wider status set: lists, counts, gradual loads and cached lists of a status the spec may add', async () => {
  const statuses = [...PET_STATUSES, 'reserved'] as unknown as PetStatus[]
  const reserved = 'reserved' as PetStatus
  const pets: Pet[] = [
    { id: 1, name: 'Ann', categoryId: 1, status: 'available' },
    { id: 2, name: 'Bo', categoryId: 1, status: reserved },
    { id: 3, name: 'Cy', categoryId: 1 },
    { id: 4, name: 'Di', categoryId: 1, status: reserved },
  ]
  const store = createStore({ initial: pets, statuses })
  expect(store.counts()).toEqual({ available: 1, pending: 0, sold: 0, reserved: 2, none: 1 })
  expect(store.list(10, reserved)).toEqual([pets[1], pets[3]].map((pet) => toPetJson(pet as Pet)))
  // Each filter keeps its answers apart: a key made of the limit and a slot per status met the next limit once.
  expect(store.listJson(1, reserved)).toBe(`[${toPetJson(pets[1] as Pet)}]`)
  expect(store.listJson(2)).toBe(`[${toPetJson(pets[0] as Pet)},${toPetJson(pets[1] as Pet)}]`)
  expect(store.listJson(1)).toBe(`[${toPetJson(pets[0] as Pet)}]`)
  expect(store.listJson(2, reserved)).toBe(`[${toPetJson(pets[1] as Pet)},${toPetJson(pets[3] as Pet)}]`)
  store.create({ name: 'Ed', categoryId: 2, status: reserved })
  expect(store.counts()).toMatchObject({ reserved: 3, none: 1 })
  expect(store.listJson(5, reserved)).toContain('"name":"Ed"')
  const loaded = createStore({ statuses })
  await loaded.replaceGradually(store.all(), async () => undefined)
  expect(loaded.counts()).toEqual(store.counts())
  expect(loaded.list(10, reserved)).toEqual(store.list(10, reserved))
  expect(loaded.texts()).toEqual(store.texts())
})

it('keeps the answers of every limit and filter apart, for every limit the API takes', () => {
  const store = createStore({ initial: Array.from({ length: 150 }, (_, i) => ({ id: i + 1, name: `P${i}`, categoryId: 1, status: PET_STATUSES[i % PET_STATUSES.length] as PetStatus })) })
  const filters = [undefined, ...PET_STATUSES]
  const seen = new Map<string, string>()
  for (let limit = LIMIT.min; limit <= LIMIT.max; limit++) for (const status of filters) seen.set(`${status}/${limit}`, store.listJson(limit, status))
  for (let limit = LIMIT.min; limit <= LIMIT.max; limit++) {
    for (const status of filters) expect(store.listJson(limit, status), `${status} ${limit}`).toBe(`[${store.list(limit, status).join(',')}]`)
  }
  expect(seen.size).toBe((LIMIT.max - LIMIT.min + 1) * filters.length)
})

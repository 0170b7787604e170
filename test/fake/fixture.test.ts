import { expect, it } from 'vitest'
import { parseFixture, toFixtureText } from '../../src/fake/fixture.js'

it('writes no animals as an empty array, and each animal on its own line', () => {
  expect(toFixtureText([])).toBe('[]\n')
  expect(toFixtureText([{ id: 1, name: 'A', categoryId: 1 }, { id: 2, name: 'B', categoryId: 1, status: 'sold' }])).toBe(
    '[\n{"id":1,"name":"A","categoryId":1},\n{"id":2,"name":"B","categoryId":1,"status":"sold"}\n]\n',
  )
})

it('says what is wrong with a fixture, naming the record', () => {
  expect(parseFixture('[{"id":1,')).toEqual({ ok: false, error: expect.stringMatching(/^not valid JSON \(.+\)$/) })
  expect(parseFixture('{"id":1}')).toEqual({ ok: false, error: 'a fixture must be a JSON array of animals' })
  expect(parseFixture('[1]')).toEqual({ ok: false, error: 'record 1 (index 0): The record must be a JSON object with name and categoryId.' })
  expect(parseFixture('[{"id":1,"name":"A","categoryId":1},{"id":2,"categoryId":1}]')).toEqual({
    ok: false,
    error: expect.stringMatching(/^record 2 \(index 1\): .*'name'/),
  })
  expect(parseFixture('[{"id":1,"name":"A","categoryId":1},{"id":1,"name":"B","categoryId":1}]')).toEqual({
    ok: false,
    error: "record 2 (index 1): field 'id' repeats id 1",
  })
})

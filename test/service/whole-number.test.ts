import { expect, it } from 'vitest'
import { isWholeNumber, parseWholeNumber } from '../../src/service/whole-number.js'
import { isRecord, jsonOrUndefined } from '../../src/service/json-value.js'

it('reads a text of up to 16 digits as a whole number within its bounds, at both bounds, and nothing else', () => {
  expect([parseWholeNumber('1', 1, 100), parseWholeNumber('100', 1, 100), parseWholeNumber('0001', 1, 100)]).toEqual([1, 100, 1])
  for (const text of ['0', '101', '-1', '+1', '1.0', '1e2', ' 1', '1 ', '', '0x10', '00000000000000001', null, undefined]) {
    expect(parseWholeNumber(text, 1, 100), String(text)).toBeUndefined()
  }
  expect(parseWholeNumber('9007199254740991', 0, Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER)
  expect(isWholeNumber(3, 3, 3)).toBe(true)
  expect([isWholeNumber(2, 3, 4), isWholeNumber(5, 3, 4), isWholeNumber(3.5, 3, 4), isWholeNumber('3', 3, 4)]).toEqual([false, false, false, false])
})

it('reads JSON text or says it is none, and tells a JSON object from null and arrays', () => {
  expect(jsonOrUndefined('{"a":1}')).toEqual({ a: 1 })
  expect(jsonOrUndefined('null')).toBeNull()
  expect([jsonOrUndefined('{"a":'), jsonOrUndefined(''), jsonOrUndefined(undefined)]).toEqual([undefined, undefined, undefined])
  expect([isRecord({}), isRecord(null), isRecord([]), isRecord('a')]).toEqual([true, false, false, false])
})

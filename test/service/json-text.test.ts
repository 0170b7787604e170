import fc from 'fast-check'
import { parse } from 'lossless-json'
import { expect, it } from 'vitest'
import { parseJsonNumber, parseJsonText } from '../../src/service/json-body.js'
import { FAST_CHECK_SEED } from '../support/fast-check-seed.js'

const lossless = (text: string): unknown => parse(text, null, parseJsonNumber)
const outcome = (read: (text: string) => unknown, text: string): unknown => {
  try {
    return { value: read(text) }
  } catch (error) {
    return { error: (error as Error).constructor.name }
  }
}

it('reads what lossless-json reads, the fast way only where it gives the same', () => {
  for (const text of [
    '{"name":"Rex","categoryId":3,"status":"sold"}',
    '{"categoryId":9007199254740993}',
    '{"categoryId":1.00000000000000001}',
    '{"name":"a","name":"b"}',
    '{"name":"a", "name" :"a"}',
    '{"a":{"b":1,"b":2}}',
    '{"note":"a\\":b","x":[{"y":1},{"y":2}]}',
    '[1,2,{"a":null}]',
    '{"n":-0,"m":1e309,"k":1.5e300,"j":1e2}',
    '{"__proto__":{"x":1},"constructor":2}',
    '{"a":',
    'null',
    '"text"',
  ]) {
    expect(outcome(parseJsonText, text), text).toEqual(outcome(lossless, text))
  }
})

it('agrees with lossless-json on generated JSON, repeated keys and long numbers included', () => {
  const key = fc.constantFrom('a', 'b', 'name', '__proto__')
  const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.bigInt().map(String))
  const json = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      number.map(String),
      fc.string().map((s) => JSON.stringify(s)),
      fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
      fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    ),
  })).value
  fc.assert(fc.property(json, (text) => {
    expect(outcome(parseJsonText, text)).toEqual(outcome(lossless, text))
  }), { numRuns: 2000, seed: FAST_CHECK_SEED })
})

import { expect, it } from 'vitest'
import { CliError, isCliError } from '../../src/cli/cli-error.js'
import { nearestName, parseOptions } from '../../src/cli/parse-options.js'

const NAMES = ['port', 'host', 'quiet']

it('counts a swap of two neighbouring letters as one slip, and only a true swap', () => {
  // One swap (one edit) and one more edit: within the allowance of 2.
  expect(nearestName('ppor', NAMES)).toBe('port')
  // "pots" is one edit from "port" and two from "host": the nearest wins.
  expect(nearestName('pots', NAMES)).toBe('port')
  // Letters that only look like part of a swap are three edits away: no suggestion.
  expect(nearestName('pppr', NAMES)).toBeUndefined()
  expect(nearestName('pptp', NAMES)).toBeUndefined()
  expect(nearestName('pppp', NAMES)).toBeUndefined()
})

it('suggests the first of two names equally near, and nothing from an empty list', () => {
  expect(nearestName('pot', ['port', 'post'])).toBe('port')
  expect(nearestName('pot', ['post', 'port'])).toBe('post')
  expect(nearestName('port', [])).toBeUndefined()
  expect(nearestName('port', ['PORT'])).toBe('PORT')
})

it('returns the parsed values of options that are all known', () => {
  const { values } = parseOptions('serve', ['--port', '0', '--quiet', '--api-key', 'a', '--api-key=b'], {
    port: { type: 'string', default: '4010' },
    quiet: { type: 'boolean', default: false },
    'api-key': { type: 'string', multiple: true, default: [] },
  })
  expect(values).toEqual({ port: '0', quiet: true, 'api-key': ['a', 'b'] })
})

it('refuses with a CliError of exit code 2 that names the command', () => {
  let caught: unknown
  try {
    parseOptions('proxy', ['--tagret', 'x'], { target: { type: 'string' } })
  } catch (error) {
    caught = error
  }
  expect(isCliError(caught)).toBe(true)
  expect(caught).toBeInstanceOf(CliError)
  expect((caught as CliError).exitCode).toBe(2)
  expect((caught as CliError).message).toBe('unknown option --tagret; did you mean --target? (animals-mock proxy --help lists every option)')
  expect(isCliError(new Error('x'))).toBe(false)
  expect(new CliError('later', 1).exitCode).toBe(1)
})

it('names a stray argument after valid options', () => {
  let message = ''
  try {
    parseOptions('seed', ['--count', '3', 'extra'], { count: { type: 'string' } })
  } catch (error) {
    message = (error as Error).message
  }
  expect(message).toBe('unexpected argument "extra": options start with -- (animals-mock seed --help lists every option)')
})

import { SPEC } from '../spec/citations.js'
import type { InteractionOutcome, Mismatch } from './results.js'

/** The spec's sentence behind each status an interaction can expect. */
const SENTENCE_OF_STATUS: Readonly<Record<string, keyof typeof SPEC>> = {
  '201': 'created',
  '400': 'badBody',
  '401': 'unauthorized',
  '404': 'notFound',
}

/** The spec's sentence behind a field of a body, by the field's name. */
const SENTENCE_OF_FIELD: Readonly<Record<string, keyof typeof SPEC>> = {
  id: 'petId',
  name: 'petName',
  categoryId: 'petCategoryId',
  code: 'errorBody',
  message: 'errorBody',
}

/**
 * A failed interaction in one line of the project's words, before Pact's own detail: what the
 * deployment answered, what the pact expected, and the spec's sentence behind it where there is one.
 * @example leadLine({ mismatches: [{ kind: 'status', message: 'expected 201 but was 200', expected: '201', actual: '200' }] })
 * // 'the deployment answered 200 where the pact expects 201 (spec 4.2: "201 | Pet (includes the assigned `id`) | Animal added")'
 */
export function leadLine(outcome: Pick<InteractionOutcome, 'mismatches'>): string {
  const first = leadMismatch(outcome)
  if (first === undefined) return 'the verifier failed it without saying why'
  const sentence = sentenceOf(first)
  const cited = sentence === undefined ? '' : ` (spec ${SPEC[sentence].section}: "${SPEC[sentence].quote}")`
  return `${whatDiffered(first)}${cited}`
}

/** The mismatch a failure is led by: the status when it differs (the rest often follows from it), else the first. */
export function leadMismatch(outcome: Pick<InteractionOutcome, 'mismatches'>): Mismatch | undefined {
  return outcome.mismatches.find((each) => each.kind === 'status') ?? outcome.mismatches[0]
}

function whatDiffered(mismatch: Mismatch): string {
  const { expected, actual } = statusesOf(mismatch)
  switch (mismatch.kind) {
    case 'status':
      return `the deployment answered ${actual ?? '?'} where the pact expects ${expected ?? '?'}`
    case 'body': {
      const missing = /missing the following keys: ([^\n]*)/.exec(mismatch.message)?.[1]
      if (missing !== undefined) return `the body at ${mismatch.key ?? '$'} lacks ${missing}, which the pact expects`
      // Pact's own sentence shows both lists whole; the counts are what differ.
      const sizes = /\(size (\d+)\) to have minimum size of (\d+)/.exec(mismatch.message)
      if (sizes !== null) return `the deployment listed ${sizes[1]} animals where the pact expects at least ${sizes[2]}`
      return `the body differs at ${mismatch.key ?? '$'}: the deployment sent ${clip(mismatch.actual ?? 'something else')} where the pact expects ${clip(mismatch.expected ?? 'another value')}`
    }
    case 'header':
      return `the header ${mismatch.key ?? ''} differs: the deployment sent ${clip(mismatch.actual ?? 'none')} where the pact expects ${clip(mismatch.expected ?? 'another value')}`
    case 'state':
      return 'the animals the interaction needs could not be set up through the public API'
    default:
      return `the ${mismatch.kind} differs: ${mismatch.message}`
  }
}

/** The longest value a lead line shows whole; Pact's detail under it has the rest. */
const LEAD_VALUE = 80

function clip(value: string): string {
  return value.length <= LEAD_VALUE ? value : `${value.slice(0, LEAD_VALUE - 1)}…`
}

function statusesOf(mismatch: Mismatch): { expected?: string | undefined; actual?: string | undefined } {
  const said = /expected (\d{3}) but was (\d{3})/.exec(mismatch.message)
  return { expected: mismatch.expected ?? said?.[1], actual: mismatch.actual ?? said?.[2] }
}

function sentenceOf(mismatch: Mismatch): keyof typeof SPEC | undefined {
  if (mismatch.kind === 'status') return SENTENCE_OF_STATUS[statusesOf(mismatch).expected ?? '']
  if (mismatch.kind !== 'body') return undefined
  // A list shorter than the pact's minimum: the default limit (20) is the spec's.
  if (/to have minimum size of/.test(mismatch.message)) return 'limit'
  const field = fieldOf(mismatch)
  // `status` is the Error body's number or a Pet's PetStatus: the expected value tells which.
  if (field === 'status') return /^\d+$|"code"/.test(mismatch.expected ?? '') ? 'errorBody' : 'petStatus'
  return SENTENCE_OF_FIELD[field]
}

/** The field a body mismatch is about: the last name of its path, or the key the object lacks. */
function fieldOf(mismatch: Mismatch): string {
  const missing = /missing the following keys: ([A-Za-z]+)/.exec(mismatch.message)?.[1]
  return missing ?? (mismatch.key ?? '').split(/[^A-Za-z]/).pop() ?? ''
}

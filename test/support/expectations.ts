import { expect } from 'vitest'
import type { CallResult } from './api-client.js'

/**
 * Asserts the spec's Error body: exactly `code`, `message` and `status`, `status` equal to the HTTP
 * status, served as application/json; and, when given, the stable code and words of the message.
 */
export function expectError(result: CallResult, status: number, code?: string, mentions?: string): void {
  expect(result.status, result.text).toBe(status)
  expectJsonType(result)
  const body = result.json as Record<string, unknown>
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status'])
  expect(body.status).toBe(status)
  expect(typeof body.code).toBe('string')
  expect(body.code).not.toBe('')
  expect(typeof body.message).toBe('string')
  if (code !== undefined) expect(body.code).toBe(code)
  if (mentions !== undefined) expect(body.message).toContain(mentions)
}

/** Asserts `Content-Type: application/json` (parameters allowed). */
export function expectJsonType(result: CallResult): void {
  expect(result.headers.get('content-type')?.split(';')[0]).toBe('application/json')
}

/** Asserts a Pet body: the four fields of the spec and nothing else, status only when set. */
export function expectPetShape(value: unknown): void {
  const pet = value as Record<string, unknown>
  expect(Number.isInteger(pet.id)).toBe(true)
  expect(typeof pet.name).toBe('string')
  expect(Number.isInteger(pet.categoryId)).toBe(true)
  for (const key of Object.keys(pet)) expect(['id', 'name', 'categoryId', 'status']).toContain(key)
  if ('status' in pet) expect(['available', 'pending', 'sold']).toContain(pet.status)
}

/** Asserts the deprecation signals of getPet: RFC 9745 Deprecation, RFC 8594 Sunset, a Link to the replacement. */
export function expectDeprecationHeaders(result: CallResult, basePath: string): void {
  expect(result.headers.get('deprecation')).toMatch(/^@-?\d+$/)
  expect(result.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
  expect(result.headers.get('link')).toBe(`<${basePath}/pets>; rel="successor-version"`)
}

/** `text` as a regular expression that matches it literally, to put inside a larger one. */
export const escapedForRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { OPENAPI_FILE, readControlOpenApiText, readOpenApiText } from '../../src/contracts/openapi-files.js'
import { parseOpenApi } from '../../src/contracts/openapi.js'

it('reads the committed contract, contracts/openapi.yaml, as text; the control API has its own document', () => {
  const text = readOpenApiText()
  expect(text).toBe(readFileSync(new URL('../../contracts/openapi.yaml', import.meta.url), 'utf8'))
  expect(OPENAPI_FILE.endsWith('/contracts/openapi.yaml')).toBe(true)
  expect(parseOpenApi(text)).toMatchObject({ openapi: '3.0.3', info: { version: '1.0.0' } })
  const control = readControlOpenApiText()
  expect(control).toBe(readFileSync(new URL('../../contracts/control.openapi.yaml', import.meta.url), 'utf8'))
  expect(parseOpenApi(control)).toMatchObject({ openapi: '3.0.3', info: { title: 'animals-mock control API' } })
})

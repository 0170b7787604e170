import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv } from 'ajv'
import { readFileSync } from 'node:fs'
import type { OpenAPIV3 } from 'openapi-types'
import { expect, it } from 'vitest'
import { OPENAPI_FILE, readControlOpenApiText, readOpenApiText } from '../../src/contracts/openapi-files.js'
import { parseOpenApi } from '../../src/contracts/openapi.js'
import { ERROR_FIELDS, INTERFACE, LIMIT, PET_STATUSES } from '../../src/spec/animals-service.js'

const doc = parseOpenApi(readOpenApiText())
const operation = (path: string, method: 'get' | 'post') => doc.paths[path]?.[method] as OpenAPIV3.OperationObject
const schema = (name: string) => doc.components?.schemas?.[name] as OpenAPIV3.SchemaObject
const parameter = (name: string) => doc.components?.parameters?.[name] as OpenAPIV3.ParameterObject

it('is a valid OpenAPI 3.0 document by the official schema', async () => {
  const validator = new Validator()
  const result = await validator.validate(OPENAPI_FILE)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
  expect(validator.version).toBe('3.0')
})

it('has one server, the path prefix /v1, so a generated client needs no placeholder filled in', () => {
  // The spec gives no production or staging address (1); a server variable would reach every
  // generated client as a placeholder in its base URL.
  expect(doc.servers?.map((server) => server.url)).toEqual([INTERFACE.basePath])
  expect(doc.servers?.[0]?.variables).toBeUndefined()
})

it('describes the service, not the fake: the fake\'s choices are x- extensions', () => {
  const descriptions: string[] = []
  JSON.stringify(doc, (key, value: unknown) => {
    if ((key === 'description' || key === 'summary' || key === 'title') && typeof value === 'string') descriptions.push(value)
    return value
  })
  expect(descriptions.length).toBeGreaterThan(20)
  for (const text of descriptions) expect(text).not.toMatch(/fake|animals-mock|pacts?\b|verifier/i)
  expect(readOpenApiText().match(/x-animals-mock-choice:/g)).toHaveLength(4)
})

it('makes the deprecated operation\'s headers optional: a correct deployment may send none of them', () => {
  const answer = operation('/pets/{petId}', 'get').responses['200'] as OpenAPIV3.ResponseObject
  expect(Object.keys(answer.headers ?? {})).toEqual(['Deprecation', 'Sunset', 'Link'])
  // Inline, not $ref: generators read a referenced header as required whatever it says.
  for (const header of Object.values(answer.headers ?? {})) expect(header).toMatchObject({ required: false, schema: { type: 'string' } })
  const created = operation('/pets', 'post').responses['201'] as OpenAPIV3.ResponseObject
  expect(created.headers?.Location).toMatchObject({ required: false })
})

it('secures every operation with the global bearerAuth scheme', () => {
  expect(doc.security).toEqual([{ bearerAuth: [] }])
  expect(doc.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
  for (const [path, method] of [['/pets', 'get'], ['/pets', 'post'], ['/pets/{petId}', 'get']] as const) {
    expect(operation(path, method).security).toBeUndefined()
    expect(Object.keys(operation(path, method).responses)).toContain('401')
  }
})

it('has the three operations with their ids, tag and statuses, getPet deprecated', () => {
  expect(operation('/pets', 'get')).toMatchObject({ operationId: 'listPets', tags: ['animals'] })
  expect(operation('/pets', 'post')).toMatchObject({ operationId: 'createPet', tags: ['animals'] })
  expect(operation('/pets/{petId}', 'get')).toMatchObject({ operationId: 'getPet', tags: ['animals'], deprecated: true })
  expect(Object.keys(operation('/pets', 'get').responses)).toEqual(['200', '401', 'default'])
  expect(Object.keys(operation('/pets', 'post').responses)).toEqual(['201', '400', '401', 'default'])
  expect(Object.keys(operation('/pets/{petId}', 'get').responses)).toEqual(['200', '401', '404', 'default'])
  expect(operation('/pets', 'post').requestBody).toMatchObject({ required: true })
})

it('holds the same limit bounds, default and statuses as the core', () => {
  expect(parameter('limit').schema).toMatchObject({ minimum: LIMIT.min, maximum: LIMIT.max, default: LIMIT.default })
  expect(schema('PetStatus').enum).toEqual([...PET_STATUSES])
})

it('describes NewPet, Pet and Error as the spec does', () => {
  expect(schema('NewPet').required).toEqual(['name', 'categoryId'])
  expect(schema('NewPet').properties?.categoryId).toMatchObject({ type: 'integer', format: 'int64' })
  // The spec's Error, keyed ErrorBody: a generated `Error` type would shadow the global one.
  expect(schema('Error')).toBeUndefined()
  expect(schema('ErrorBody')).toMatchObject({ title: 'Error', type: 'object', required: [...ERROR_FIELDS] })
  expect(Object.keys(schema('ErrorBody').properties ?? {})).toEqual([...ERROR_FIELDS])
  const petParts = schema('Pet').allOf as OpenAPIV3.SchemaObject[]
  expect(petParts[1]?.required).toEqual(['id'])
  expect(petParts[1]?.properties?.id).toMatchObject({ type: 'integer', format: 'int64' })
})

it('gives examples that are valid against their own schemas', () => {
  const ajv = new Ajv({ strict: false })
  ajv.addFormat('int32', true).addFormat('int64', true)
  ajv.addSchema({ components: doc.components } as object, 'doc')
  const examples: { where: string; schema: object; value: unknown }[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item ?? {}) as [string, OpenAPIV3.OperationObject][]) {
      const bodies = [op.requestBody, ...Object.values(op.responses ?? {})]
      for (const body of bodies) {
        const resolved = resolve(body) as { content?: Record<string, OpenAPIV3.MediaTypeObject> } | undefined
        for (const media of Object.values(resolved?.content ?? {})) {
          const values = [media.example, ...Object.values(media.examples ?? {}).map((e) => (e as OpenAPIV3.ExampleObject).value)]
          for (const value of values.filter((v) => v !== undefined)) {
            examples.push({ where: `${method} ${path}`, schema: rebase(media.schema), value })
          }
        }
      }
    }
  }
  expect(examples.length).toBeGreaterThan(8)
  for (const { where, schema: s, value } of examples) {
    expect(ajv.validate(s, value), `${where}: ${JSON.stringify(ajv.errors)}`).toBe(true)
  }
})

function resolve(value: unknown): unknown {
  const ref = (value as OpenAPIV3.ReferenceObject | undefined)?.$ref
  if (ref === undefined) return value
  return ref.split('/').slice(1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc)
}

/** Points the document's `#/components/...` references at the schema registered as `doc`. */
function rebase(value: unknown): object {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/', '"doc#/components/')) as object
}

it("marks every header it names as this fake's choice, since the spec names no response header", () => {
  const headers: [string, Record<string, unknown>][] = []
  const walk = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === 'headers' && typeof child === 'object' && child !== null) {
        for (const [name, header] of Object.entries(child)) headers.push([`${path}.headers.${name}`, header as Record<string, unknown>])
      }
      walk(child, `${path}.${key}`)
    }
  }
  walk(doc, '$')
  expect(headers.length).toBeGreaterThan(0)
  const resolve = (header: Record<string, unknown>): Record<string, unknown> => {
    const ref = header.$ref
    return typeof ref === 'string' ? (doc.components?.headers?.[ref.split('/').pop() ?? ''] as Record<string, unknown>) : header
  }
  for (const [where, header] of headers) {
    expect(resolve(header)['x-animals-mock-choice'], where).toEqual(expect.any(String))
    expect(resolve(header).required, where).not.toBe(true)
  }
})

it('states a format only where the spec gives one: int64 for id, categoryId and petId', () => {
  const formats: string[] = []
  const walk = (value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === 'format') formats.push(`${path} ${String(child)}`)
      walk(child, `${path}.${key}`)
    }
  }
  walk(doc, '$')
  expect(formats.sort()).toEqual([
    '$.components.schemas.NewPet.properties.categoryId int64',
    '$.components.schemas.Pet.allOf.1.properties.id int64',
    '$.paths./pets/{petId}.get.parameters.0.schema int64',
  ])
})

it('reads the committed contract, contracts/openapi.yaml, as text; the control API has its own document', () => {
  const text = readOpenApiText()
  expect(text).toBe(readFileSync(new URL('../../contracts/openapi.yaml', import.meta.url), 'utf8'))
  expect(OPENAPI_FILE.endsWith('/contracts/openapi.yaml')).toBe(true)
  expect(parseOpenApi(text)).toMatchObject({ openapi: '3.0.3', info: { version: '1.0.0' } })
  const control = readControlOpenApiText()
  expect(control).toBe(readFileSync(new URL('../../contracts/control.openapi.yaml', import.meta.url), 'utf8'))
  expect(parseOpenApi(control)).toMatchObject({ openapi: '3.0.3', info: { title: 'animals-mock control API' } })
})

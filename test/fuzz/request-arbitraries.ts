import fc from 'fast-check'
import type { OpenAPIV3 } from 'openapi-types'
import { parseOpenApi, readOpenApiText } from '../../src/contracts/openapi.js'

/** A request as the fuzzer sends it: raw enough for repeated parameters and odd headers. */
export type FuzzRequest = {
  readonly method: string
  /** Below the API base, e.g. `/pets/7`. */
  readonly path: string
  readonly query: readonly (readonly [string, string])[]
  readonly headers: readonly (readonly [string, string])[]
  readonly body?: Uint8Array
}

/** The accepted key of the fuzzed fake. */
export const FUZZ_KEY = 'fuzz-key-0b7d'

type Schema = OpenAPIV3.SchemaObject
const encoder = new TextEncoder()

/** A JSON value whose numbers are written verbatim, so `1e309` or `-0` reach the parser as text. */
type RawJson = { readonly raw: string } | null | boolean | string | readonly RawJson[] | { readonly [key: string]: RawJson }

function toText(value: RawJson): string {
  if (value === null || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(toText).join(',')}]`
  if ('raw' in value && typeof value.raw === 'string') return value.raw
  const entries = Object.entries(value as Record<string, RawJson>)
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${toText(item)}`).join(',')}}`
}

const ODD_NUMBERS = ['1e309', '-0', '9007199254740993', '9223372036854775807', '9223372036854775808', '-9223372036854775809', '1.5', '1.00000000000000001', '0.1e1', '1E2', '00', '-1']
const ODD_TEXT = ['', ' ', 'abc', '1.5', '1e309', '-0', '9007199254740993', '9223372036854775808', '+1', '0x10', '１', '٣', 'null', '__proto__', 'constructor', '%00', '🐈']

const oddString = fc.oneof(
  fc.constantFrom(...ODD_TEXT),
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer({ min: 1_000, max: 100_000 }).map((length) => 'ż'.repeat(length)),
)

/** Text for a query or path parameter of this schema: valid values, its bounds, and everything else. */
function parameterText(schema: Schema): fc.Arbitrary<string> {
  if (schema.enum !== undefined) {
    const values = schema.enum.map(String)
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, fc.constantFrom(...values.map((v) => v.toUpperCase())), oddString)
  }
  if (schema.type === 'integer') {
    const min = schema.minimum ?? -1000
    const max = schema.maximum ?? 1000
    return fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min, max }).map(String) },
      fc.constantFrom(min - 1, min, max, max + 1).map(String),
      fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
      fc.constantFrom(...ODD_NUMBERS),
      oddString,
    )
  }
  return oddString
}

/** A JSON value of this schema, or of another type. */
function jsonValue(schema: Schema): fc.Arbitrary<RawJson> {
  const wrong: fc.Arbitrary<RawJson> = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom(...ODD_NUMBERS).map((raw) => ({ raw })),
    fc.constant([]),
    fc.constant({ raw: '{"__proto__":{"polluted":1},"constructor":{"prototype":1}}' }),
  )
  if (schema.enum !== undefined) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...schema.enum.map(String)) }, oddString, wrong)
  if (schema.type === 'integer') {
    const valid = fc.oneof(fc.integer({ min: -5, max: 50 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))
    return fc.oneof({ weight: 4, arbitrary: valid.map((n) => ({ raw: String(n) })) }, fc.constantFrom(...ODD_NUMBERS).map((raw) => ({ raw })), oddString, wrong)
  }
  if (schema.type === 'string') return fc.oneof({ weight: 4, arbitrary: oddString }, wrong)
  return wrong
}

/** A body for this object schema: its fields present, missing or mistyped, with extra and prototype keys. */
function bodyOf(schema: Schema): fc.Arbitrary<Uint8Array | undefined> {
  const properties = Object.entries(schema.properties ?? {}) as [string, Schema][]
  const required = new Set(schema.required ?? [])
  const fields = properties.map(([name, property]) =>
    fc.option(jsonValue(property), { freq: required.has(name) ? 8 : 2, nil: undefined }).map((value) => [name, value] as const),
  )
  const extras = fc.array(
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'extra', ''), jsonValue({ type: 'string' })),
    { maxLength: 3 },
  )
  const object = fc.tuple(fc.tuple(...fields), extras).map(([present, extra]) => {
    const entries = [...present.filter(([, value]) => value !== undefined), ...extra] as [string, RawJson][]
    return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${toText(value)}`).join(',')}}`
  })
  const text = fc.oneof(
    { weight: 12, arbitrary: object },
    fc.constantFrom('[]', 'null', '"Rex"', '42', 'true', '', '{', '{"name":', '{"name":"a","name":"b","categoryId":1}'),
    fc.tuple(object, fc.nat()).map(([whole, cut]) => whole.slice(0, cut % Math.max(1, whole.length))),
    fc.integer({ min: 1, max: 100_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc.integer({ min: 1, max: 5_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  )
  return fc.oneof(
    { weight: 20, arbitrary: text.map((body) => encoder.encode(body)) },
    fc.constant(undefined),
    fc.uint8Array({ maxLength: 64 }),
    fc.constant(encoder.encode(`{"name":"${'x'.repeat(1024 * 1024)}","categoryId":1}`)),
  )
}

const authorization = fc.oneof(
  { weight: 12, arbitrary: fc.constant([['authorization', `Bearer ${FUZZ_KEY}`]] as [string, string][]) },
  fc.constantFrom(`bearer ${FUZZ_KEY}`, `BEARER ${FUZZ_KEY}`, 'Bearer wrong-key', 'Basic Zm9vOmJhcg==', 'Bearer', '', `Bearer ${FUZZ_KEY} extra`, 'Token x').map((value) => [['authorization', value]] as [string, string][]),
  fc.constant([['authorization', `Bearer ${FUZZ_KEY}`], ['authorization', 'Bearer other']] as [string, string][]),
  fc.constant([] as [string, string][]),
)

const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/vnd.x+json', 'APPLICATION/JSON', 'multipart/form-data; boundary=x', ''),
  fc.string({ maxLength: 30 }),
)

const oddHeaders = fc.array(
  fc.tuple(fc.constantFrom('x-request-id', 'accept', 'content-type', '__proto__', 'constructor', 'x-forwarded-for', 'cookie'), fc.string({ maxLength: 40 })),
  { maxLength: 3 },
)

const ODD_PATHS = ['/', '', '/pets/', '//pets', '/pets/1/2', '/PETS', '/pets/%ZZ', '/pets/%2e%2e', '/pets/..', '/store/orders', '/pets/1%2F2', '/__proto__', '/pets/constructor', `/pets/${'9'.repeat(5000)}`]

/**
 * Requests derived from `contracts/openapi.yaml`: each operation's method, path parameters, query
 * parameters and request body schema give the valid values, and each is bent into invalid ones;
 * odd methods, paths and headers come on top.
 */
export function createRequestArbitrary(): fc.Arbitrary<FuzzRequest> {
  const doc = parseOpenApi(readOpenApiText())
  const operations = Object.entries(doc.paths).flatMap(([template, item]) =>
    (['get', 'post'] as const)
      .filter((method) => item?.[method] !== undefined)
      .map((method) => ({ method: method.toUpperCase(), template, operation: item?.[method] as OpenAPIV3.OperationObject })),
  )
  const resolveParameter = (parameter: OpenAPIV3.ParameterObject | OpenAPIV3.ReferenceObject): OpenAPIV3.ParameterObject =>
    ('$ref' in parameter ? doc.components?.parameters?.[parameter.$ref.split('/').at(-1) ?? ''] : parameter) as OpenAPIV3.ParameterObject
  const resolveSchema = (schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject | undefined): Schema =>
    ((schema !== undefined && '$ref' in schema ? doc.components?.schemas?.[schema.$ref.split('/').at(-1) ?? ''] : schema) ?? {}) as Schema

  // One arbitrary per operation, built once: chaining would rebuild them for every request.
  const perOperation = operations.map(({ method, template, operation }) => {
    const parameters = (operation.parameters ?? []).map(resolveParameter)
    const pathParameters = parameters.filter((parameter) => parameter.in === 'path')
    const queryParameters = parameters.filter((parameter) => parameter.in === 'query')
    const path = fc
      .tuple(...pathParameters.map((parameter) => fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -2, max: 70 }).map(String) }, parameterText(resolveSchema(parameter.schema)))))
      .map((values) => pathParameters.reduce((text, parameter, i) => text.replace(`{${parameter.name}}`, encodeURIComponent(values[i] ?? '')), template))
    const query = fc
      .tuple(
        ...queryParameters.map((parameter) =>
          fc.array(parameterText(resolveSchema(parameter.schema)), { maxLength: 2 }).map((values) => values.map((value) => [parameter.name, value] as const)),
        ),
        fc.array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'page', 'LIMIT'), fc.string({ maxLength: 10 })), { maxLength: 2 }),
      )
      .map((groups) => groups.flat() as (readonly [string, string])[])
    const requestBody = operation.requestBody as OpenAPIV3.RequestBodyObject | undefined
    const bodySchema = resolveSchema(requestBody?.content['application/json']?.schema)
    const body = requestBody === undefined ? fc.constant(undefined) : bodyOf(bodySchema)
    const headers = fc
      .tuple(authorization, requestBody === undefined ? fc.constant(undefined) : fc.option(contentType, { freq: 8, nil: undefined }), oddHeaders)
      .map(([auth, type, odd]) => [...auth, ...(type === undefined ? [] : [['content-type', type] as [string, string]]), ...odd])
    const methods = fc.oneof({ weight: 8, arbitrary: fc.constant(method) }, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'))
    return fc.record({ method: methods, path, query, headers, body }).map(({ body: bytes, ...rest }) => (bytes === undefined ? rest : { ...rest, body: bytes }))
  })
  const fromOperation = fc.oneof(...perOperation)

  const odd = fc.record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PUT', 'get', 'FOO'),
    path: fc.oneof(fc.constantFrom(...ODD_PATHS), fc.webPath()),
    query: fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 3 }),
    headers: fc.tuple(authorization, oddHeaders).map(([auth, extra]) => [...auth, ...extra]),
  })
  return fc.oneof({ weight: 9, arbitrary: fromOperation }, odd)
}

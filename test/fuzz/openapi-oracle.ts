import { Ajv, type ValidateFunction } from 'ajv'
import type { OpenAPIV3 } from 'openapi-types'
import { parseOpenApi, readOpenApiText } from '../../src/contracts/openapi.js'

/** A response as the oracle judges it. */
export type Observed = { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }

/**
 * The fake's documented extras beyond each operation's listed statuses (README, "Error codes"):
 * 400 for a bad query or path parameter, 413 past the body cap, 507 when the store is full.
 */
export const EXTRA_STATUSES: Readonly<Record<string, readonly number[]>> = {
  listPets: [400],
  createPet: [413, 507],
  getPet: [400],
}

type Operation = { readonly id: string; readonly responses: ReadonlyMap<string, ValidateFunction | undefined> }
type PathItem = { readonly segments: readonly string[]; readonly methods: ReadonlyMap<string, Operation> }

/**
 * Judges responses against `contracts/openapi.yaml` itself: the statuses it documents for the
 * operation (or the documented extras), and bodies valid against its own schemas with ajv.
 */
export function createOracle(): { check(method: string, path: string, observed: Observed): string[]; readonly operations: number } {
  const doc = parseOpenApi(readOpenApiText())
  const ajv = new Ajv({ strict: false, allErrors: true })
  ajv.addFormat('int32', true).addFormat('int64', true)
  ajv.addSchema({ components: doc.components } as object, 'doc')
  const compile = (schema: unknown): ValidateFunction =>
    ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object)
  const errorSchema = compile({ $ref: '#/components/schemas/ErrorBody' })
  const paths: PathItem[] = Object.entries(doc.paths).map(([template, item]) => ({
    segments: template.split('/'),
    methods: new Map(
      (['get', 'post', 'put', 'delete', 'patch'] as const)
        .filter((method) => item?.[method] !== undefined)
        .map((method) => {
          const operation = item?.[method] as OpenAPIV3.OperationObject
          const responses = new Map(
            Object.entries(operation.responses).map(([status, response]) => {
              const resolved = resolve(doc, response) as OpenAPIV3.ResponseObject
              const schema = resolved.content?.['application/json']?.schema
              return [status, schema === undefined ? undefined : compile(schema)] as const
            }),
          )
          return [method.toUpperCase(), { id: operation.operationId ?? method, responses }] as const
        }),
    ),
  }))

  function check(method: string, rawPath: string, observed: Observed): string[] {
    const problems: string[] = []
    const path = rawPath.split('?')[0] ?? rawPath
    const item = paths.find((candidate) => matches(candidate.segments, path.split('/')))
    const effectiveMethod = method === 'HEAD' ? 'GET' : method
    const operation = item?.methods.get(effectiveMethod)
    const { status } = observed
    let allowed: readonly number[]
    if (method === 'OPTIONS') allowed = [204]
    else if (item === undefined) allowed = [401, 404]
    else if (operation === undefined) allowed = [401, 405]
    else {
      const listed = [...operation.responses.keys()].filter((key) => key !== 'default').map(Number)
      allowed = [...listed, ...(EXTRA_STATUSES[operation.id] ?? [])]
    }
    if (!allowed.includes(status)) problems.push(`status ${status} is not documented for ${method} ${path} (${allowed.join(', ')})`)
    if (status >= 500 && status !== 507) problems.push(`a ${status}: the fake failed`)
    if (status === 405 && observed.headers.allow === undefined) problems.push('405 without Allow')
    if (status === 204 || method === 'HEAD') {
      if (observed.body !== '') problems.push(`${status} to ${method} carries a body`)
      return problems
    }
    if (observed.headers['content-type']?.split(';')[0] !== 'application/json') {
      problems.push(`content-type is ${observed.headers['content-type']}`)
    }
    let body: unknown
    try {
      body = JSON.parse(observed.body)
    } catch {
      return [...problems, `the body is not JSON: ${observed.body.slice(0, 80)}`]
    }
    const validate = (operation?.responses.has(String(status)) ? operation.responses.get(String(status)) : errorSchema) ?? errorSchema
    if (!validate(body)) problems.push(`the body does not match its schema: ${ajv.errorsText(validate.errors)}`)
    if (status >= 400 && (body as { status?: unknown }).status !== status) problems.push('the Error body status differs from the HTTP status')
    return problems
  }

  return { check, operations: paths.reduce((sum, item) => sum + item.methods.size, 0) }
}

function matches(template: readonly string[], segments: readonly string[]): boolean {
  return (
    template.length === segments.length &&
    template.every((part, i) => (part.startsWith('{') ? (segments[i] ?? '') !== '' : part === segments[i]))
  )
}

function resolve(doc: OpenAPIV3.Document, value: unknown): unknown {
  const ref = (value as OpenAPIV3.ReferenceObject | undefined)?.$ref
  if (ref === undefined) return value
  return ref.split('/').slice(1).reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc)
}

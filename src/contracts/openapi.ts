import type { OpenAPIV3 } from 'openapi-types'
import { parse } from 'yaml'

// The file locations live apart, so the server can read the contract without loading the YAML parser.
export { OPENAPI_FILE, readControlOpenApiText, readOpenApiText } from './openapi-files.js'

/** The contract as a typed OpenAPI 3.0 document. */
export function parseOpenApi(text: string): OpenAPIV3.Document {
  return parse(text) as OpenAPIV3.Document
}

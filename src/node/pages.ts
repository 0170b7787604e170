import { CORS_HEADERS } from '../core/http.js'
import { jsonPage, type Page } from '../core/site.js'
import { parseOpenApi, readOpenApiText } from '../contracts/openapi.js'

/** Where the standalone server serves the contract and its health check. */
export const PAGE_PATHS = {
  openapiYaml: '/openapi.yaml',
  openapiJson: '/openapi.json',
  health: '/healthz',
} as const

/**
 * The documents served beside the API. The contract's text is read at start (a few kB); the JSON
 * form is built on first request, so the YAML parser costs start-up nothing.
 */
export function createPages(): Map<string, Page> {
  const yamlText = readOpenApiText()
  let jsonText: string | undefined
  return new Map<string, Page>([
    [PAGE_PATHS.openapiYaml, () => ({ status: 200, headers: documentHeaders('application/yaml'), body: yamlText })],
    [
      PAGE_PATHS.openapiJson,
      () => {
        jsonText ??= JSON.stringify(parseOpenApi(yamlText))
        return { status: 200, headers: documentHeaders('application/json'), body: jsonText }
      },
    ],
    [PAGE_PATHS.health, jsonPage({ status: 'ok' })],
  ])
}

function documentHeaders(type: string): Record<string, string> {
  return { 'content-type': `${type}; charset=utf-8`, ...CORS_HEADERS }
}

import type { KeyPolicy } from '../service/auth.js'
import { jsonPage, type Page } from './site.js'
import { readOpenApiText } from '../contracts/openapi-files.js'
import { ASSET_TYPES, lazily } from './asset-file.js'
import { createDashboardPages, DASHBOARD_PATHS } from './dashboard-pages.js'
import { createDocsPages, DOCS_PATHS } from './docs-pages.js'
import { SITE_STYLE_PATH, textResponse } from './html.js'
import { landingPage } from './landing-page.js'
import { SITE_CSS } from './site-style.js'

/** Where the standalone server serves its pages, the contract and its health check. */
export const PAGE_PATHS = {
  landing: '/',
  docs: DOCS_PATHS.page,
  dashboard: DASHBOARD_PATHS.page,
  openapiYaml: '/openapi.yaml',
  openapiJson: '/openapi.json',
  health: '/healthz',
  style: SITE_STYLE_PATH,
} as const

/** Options of `createPages`: what the landing page and the dashboard tell about this instance. */
export type PagesOptions = {
  /** Accepted keys; the pages say how many, never which. Any non-empty token when absent. */
  readonly keys?: KeyPolicy
  /** The control API: `open`, `token` (needs `X-Control-Token`), or `off` (no dashboard). Off when absent. */
  readonly control?: 'open' | 'token' | 'off'
  /** The health check; `{"status":"ok"}` unless given (a store in Redis asks it first). */
  readonly health?: Page
}

/**
 * The pages and documents served beside the API, by exact path. The contract's text is read at
 * start (a few kB); everything else is built or read on first request, so the YAML parser and the
 * docs bundle cost start-up nothing.
 */
export function createPages(options: PagesOptions = {}): Map<string, Page> {
  const yamlText = readOpenApiText()
  const control = options.control ?? 'off'
  const jsonText = lazily(async () => {
    const { parseOpenApi } = await import('../contracts/openapi.js')
    return JSON.stringify(parseOpenApi(yamlText))
  })
  return new Map<string, Page>([
    [PAGE_PATHS.landing, landingPage({ keys: options.keys ?? { kind: 'any' }, control })],
    [PAGE_PATHS.openapiYaml, () => textResponse('application/yaml', yamlText)],
    [PAGE_PATHS.openapiJson, async () => textResponse('application/json', await jsonText())],
    [PAGE_PATHS.health, options.health ?? jsonPage({ status: 'ok' })],
    [PAGE_PATHS.style, () => textResponse(ASSET_TYPES['.css'], SITE_CSS)],
    ...createDocsPages(yamlText),
    ...createDashboardPages(control !== 'off'),
  ])
}

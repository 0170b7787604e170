import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { PACKAGE_ROOT } from '#package-root'
import type { OpenAPIV3 } from 'openapi-types'
import { API_BASE, type Page } from './site.js'
import { assetFile, ASSET_TYPES, ASSETS_BASE, lazily } from './asset-file.js'
import { htmlResponse, textResponse } from './html.js'

/** Where the API reference and what it loads are served. */
export const DOCS_PATHS = {
  page: '/docs',
  /** The contract with this fake first among its servers, so "try it" reaches the fake. */
  document: '/docs/openapi.json',
  script: `${ASSETS_BASE}swagger-ui/swagger-ui-bundle.js`,
  style: `${ASSETS_BASE}swagger-ui/swagger-ui.css`,
} as const

// What to do when swagger-ui-dist is found but a file of it is not: a broken install.
const SWAGGER_REMEDY = 'reinstall swagger-ui-dist (npm install swagger-ui-dist)'

/**
 * The API reference: Swagger UI from the `swagger-ui-dist` package, its files served by the fake
 * itself, so the page works with no network beyond the fake.
 */
export function createDocsPages(contractText: string): [string, Page][] {
  // Resolved now (cheap), read on first request (1.7 MB).
  const swaggerDir = findSwaggerUi()
  const documentText = lazily(async () => {
    const { parseOpenApi } = await import('../contracts/openapi.js')
    return JSON.stringify(withFakeServer(parseOpenApi(contractText)))
  })
  const document: [string, Page] = [DOCS_PATHS.document, async () => textResponse('application/json', await documentText())]
  if (swaggerDir === undefined) return [[DOCS_PATHS.page, () => htmlResponse(NO_SWAGGER_HTML)], document]
  return [
    [DOCS_PATHS.page, () => htmlResponse(DOCS_HTML)],
    document,
    [DOCS_PATHS.script, assetFile(join(swaggerDir, 'swagger-ui-bundle.js'), ASSET_TYPES['.js'], SWAGGER_REMEDY)],
    [DOCS_PATHS.style, assetFile(join(swaggerDir, 'swagger-ui.css'), ASSET_TYPES['.css'], SWAGGER_REMEDY)],
  ]
}

/**
 * Where `swagger-ui-dist` is installed, if it is: an optional peer dependency, since it weighs
 * 12 MB and pulls an install script (@scarf/scarf) into every frontend that installs the fake.
 */
function findSwaggerUi(): string | undefined {
  try {
    return dirname(createRequire(join(PACKAGE_ROOT, 'package.json')).resolve('swagger-ui-dist/package.json'))
  } catch {}
  return undefined // not installed
}

/**
 * The reference puts this fake first among the contract's servers, in place of the contract's own
 * relative `/v1`, which on this page would be the same address. A relative URL is resolved against
 * the page, so it holds whatever address the browser used.
 */
export function withFakeServer(document: OpenAPIV3.Document): OpenAPIV3.Document {
  const fake: OpenAPIV3.ServerObject = { url: API_BASE, description: 'This fake (animals-mock)' }
  const others = (document.servers ?? []).filter((server) => server.url !== fake.url)
  return withoutQueryExamples({ ...document, servers: [fake, ...others] })
}

/**
 * Swagger UI fills a parameter in from its example (the schema's, through a $ref), so "Execute"
 * on listPets would send `?limit=20&status=available` and list only available animals. The
 * reference's copy of the document leaves query parameters empty: Execute sends `GET /pets`.
 */
function withoutQueryExamples(document: OpenAPIV3.Document): OpenAPIV3.Document {
  const components = document.components
  const schemas = components?.schemas ?? {}
  const parameters = Object.fromEntries(
    Object.entries(components?.parameters ?? {}).map(([name, parameter]) => {
      if ('$ref' in parameter || parameter.in !== 'query') return [name, parameter]
      const { example: _example, ...rest } = parameter
      const schema = rest.schema !== undefined && '$ref' in rest.schema ? schemas[rest.schema.$ref.replace('#/components/schemas/', '')] : rest.schema
      if (schema === undefined || '$ref' in schema) return [name, rest]
      const { example: _schemaExample, ...plainSchema } = schema
      return [name, { ...rest, schema: plainSchema }]
    }),
  )
  return { ...document, components: { ...components, parameters } }
}

// validatorUrl: null keeps Swagger UI from sending the document to its online validator.
const SWAGGER_OPTIONS = {
  url: DOCS_PATHS.document,
  dom_id: '#swagger-ui',
  validatorUrl: null,
  tryItOutEnabled: true,
  persistAuthorization: false,
  displayRequestDuration: true,
  deepLinking: true,
}

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Animals service API reference · animals-mock</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_PATHS.style}">
<style>
  body { margin: 0; background: #fafafa; }
  .am-bar { font: 14px/1.4 system-ui, sans-serif; padding: 10px 20px; background: #1f2933; color: #e4e7eb; }
  .am-bar a { color: #9fd3ff; margin-left: 16px; }
  .am-bar strong { color: #fff; }
</style>
</head>
<body>
<nav class="am-bar" data-testid="docs-nav"><strong>animals-mock</strong> API reference: "Authorize" with any accepted key, then "Execute" sends the request to this fake.
  <a href="/">home</a><a href="/dashboard">dashboard</a><a href="/openapi.yaml">openapi.yaml</a></nav>
<div id="swagger-ui" data-testid="docs"></div>
<script src="${DOCS_PATHS.script}"></script>
<script>SwaggerUIBundle(${escapeScriptJson(SWAGGER_OPTIONS)})</script>
</body>
</html>
`

const NO_SWAGGER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Animals service API reference · animals-mock</title>
<link rel="icon" href="data:,">
<style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }</style>
</head>
<body>
<h1>The API reference needs swagger-ui-dist</h1>
<p data-testid="docs-missing">This page shows the contract with Swagger UI, which is not installed here: it is an optional
dependency of animals-mock. Install it next to animals-mock, then restart the fake:</p>
<pre><code>npm install --save-dev swagger-ui-dist</code></pre>
<p>Meanwhile the contract itself is at <a href="/openapi.yaml">/openapi.yaml</a> and
<a href="/openapi.json">/openapi.json</a>; <a href="/">home</a>, <a href="/dashboard">dashboard</a>.</p>
</body>
</html>
`

function escapeScriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

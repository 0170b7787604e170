import { CONTROL_BASE, CONTROL_BODY_LIMIT, type Control } from './control.js'
import { apiError, toErrorResponse } from './errors.js'
import { type Handler, JSON_HEADERS, type PlainRequest, type PlainResponse, type Reply, withoutBody } from './http.js'
import { MAX_BODY_BYTES } from './json-body.js'

/** The path prefix of the API on the standalone server, as on the real service (spec 9.1). */
export const API_BASE = '/v1'

/**
 * A document or page served outside the API, built when first asked for. It sees the request, so a
 * page can show the address the client used (its `Host`); it may answer later, so a page can load
 * what it needs (a parser, a bundle) on first request instead of at start.
 */
export type Page = (request: PlainRequest) => PlainResponse | Promise<PlainResponse>

/** Options of `createSite`. */
export type SiteOptions = {
  readonly api: Handler
  /** The control API under `/__control`; without it those paths answer like any unknown path. */
  readonly control?: Control
  /** Documents and pages by exact path, e.g. `/openapi.yaml`; served to GET and HEAD. */
  readonly pages?: ReadonlyMap<string, Page>
}

/**
 * The whole standalone server as one function: the API under `/v1`, pages by path, and a JSON 404
 * everywhere else. Requests arrive with their full path and an empty `basePath`.
 */
export function createSite(options: SiteOptions): Handler {
  const pages = options.pages ?? new Map<string, Page>()
  return {
    handle(request: PlainRequest): Reply | Promise<Reply> {
      const { path } = request
      if (path === API_BASE || path.startsWith(`${API_BASE}/`)) {
        return options.api.handle(below(request, API_BASE))
      }
      if (options.control !== undefined && isControlPath(path)) {
        return options.control.handle(below(request, CONTROL_BASE))
      }
      const page = pages.get(path)
      if (page === undefined) {
        return toErrorResponse(apiError('route_not_found', `Nothing is served at ${path}; the API is under ${API_BASE}.`))
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return toErrorResponse(
          apiError('method_not_allowed', `${request.method} is not allowed here; use GET.`, { allow: 'GET, HEAD' }),
        )
      }
      const response = page(request)
      if (request.method !== 'HEAD') return response
      return response instanceof Promise ? response.then(withoutBody) : withoutBody(response)
    },
    bodyLimit: (path) => (options.control !== undefined && isControlPath(path) ? CONTROL_BODY_LIMIT : MAX_BODY_BYTES),
  }
}

/** The request as the part mounted at `base` sees it; spelled out, as a spread would cost a shape. */
function below(request: PlainRequest, base: string): PlainRequest {
  const { method, path, search, headers, body } = request
  return { method, path: path.slice(base.length), basePath: base, search, headers, body }
}

function isControlPath(path: string): boolean {
  return path === CONTROL_BASE || path.startsWith(`${CONTROL_BASE}/`)
}

/** A page answering fixed JSON, e.g. the health check. */
export function jsonPage(value: unknown): Page {
  const body = JSON.stringify(value)
  return () => ({ status: 200, headers: JSON_HEADERS, body })
}

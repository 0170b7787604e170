import { CONTROL_BASE, type Control } from '../fake/control.js'
import { apiError, toErrorResponse } from '../service/errors.js'
import { type Handler, JSON_HEADERS, type PlainRequest, type PlainResponse, type Reply, withoutBody } from '../service/http.js'
import { MAX_BODY_BYTES } from '../service/json-body.js'
import { controlCorsHeaders, controlPreflight, createHostPolicy, type HostPolicy, refuseControlRequest, refuseHost } from './site-guard.js'

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
  /** Which `Host` headers are answered; addresses, localhost and `*.localhost` unless given. */
  readonly hosts?: HostPolicy
  /** Web origins allowed to call the control API from their pages (`--control-cors`); none by default. */
  readonly controlCorsOrigins?: readonly string[]
}

/**
 * The whole standalone server as one function: the API under `/v1`, pages by path, and a JSON 404
 * everywhere else. Requests arrive with their full path and an empty `basePath`.
 */
export function createSite(options: SiteOptions): Handler {
  const pages = options.pages ?? new Map<string, Page>()
  const hostAllowed = options.hosts ?? createHostPolicy()
  const corsOrigins = new Set(options.controlCorsOrigins ?? [])
  const { control } = options
  return {
    handle(request: PlainRequest): Reply | Promise<Reply> {
      if (!hostAllowed(request.headers.host)) return refuseHost()
      const { path } = request
      if (path === API_BASE || path.startsWith(`${API_BASE}/`)) {
        return options.api.handle(below(request, API_BASE))
      }
      if (control !== undefined && isControlPath(path)) return handleControl(control, request, corsOrigins)
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
    admit(request) {
      if (!hostAllowed(request.headers.host)) return refuseHost()
      if (control === undefined || !isControlPath(request.path)) return undefined
      if (request.method === 'OPTIONS') return withControlCors(controlPreflight(request, corsOrigins), request, corsOrigins)
      const refusal = refuseControlRequest(request, corsOrigins) ?? control.admit(below(request, CONTROL_BASE))
      return refusal === undefined ? undefined : withControlCors(refusal, request, corsOrigins)
    },
    bodyLimit: (method, path) => (control !== undefined && isControlPath(path) ? control.bodyLimit(method, path.slice(CONTROL_BASE.length)) : MAX_BODY_BYTES),
  }
}

async function handleControl(control: Control, request: PlainRequest, corsOrigins: ReadonlySet<string>): Promise<PlainResponse> {
  if (request.method === 'OPTIONS') return withControlCors(controlPreflight(request, corsOrigins), request, corsOrigins)
  const response = refuseControlRequest(request, corsOrigins) ?? (await control.handle(below(request, CONTROL_BASE)))
  return withControlCors(response, request, corsOrigins)
}

/**
 * A control answer with the API's `*` CORS taken out (errors share the API's Error response) and
 * the origin's own put in when the user opted it in.
 */
function withControlCors(response: PlainResponse, request: PlainRequest, corsOrigins: ReadonlySet<string>): PlainResponse {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (name !== 'access-control-allow-origin' && name !== 'access-control-expose-headers') headers[name] = value
  }
  return { ...response, headers: { ...headers, ...controlCorsHeaders(request, corsOrigins) } }
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

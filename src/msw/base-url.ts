/** Where the API is mounted, split the way msw and the core each need it. */
export type ApiBase = {
  /** The origin requests must have, e.g. `https://api.example.com`. */
  readonly origin: string
  /** The path prefix below the origin, without a trailing slash, e.g. `/v1`; `''` for the root. */
  readonly basePath: string
}

/** Thrown when a base URL cannot be used: not a URL, or relative where there is no page origin. */
export class BaseUrlError extends Error {
  override readonly name = 'BaseUrlError'
}

/**
 * Reads an absolute base (`https://api.example.com/v1`) or a relative one (`/v1`); a relative base
 * is resolved against the page's origin, which only a browser (or jsdom, happy-dom) has.
 * @example resolveApiBase('http://animals.test/api/v1') // { origin: 'http://animals.test', basePath: '/api/v1' }
 */
export function resolveApiBase(baseUrl: string): ApiBase {
  const pageOrigin = typeof location === 'undefined' ? undefined : location.origin
  let url: URL
  try {
    url = new URL(baseUrl, pageOrigin)
  } catch {
    throw new BaseUrlError(
      pageOrigin === undefined && baseUrl.startsWith('/')
        ? `baseUrl ${JSON.stringify(baseUrl)} is relative, and there is no page origin to resolve it against here: ` +
            `outside a browser pass an absolute URL such as "http://localhost/v1", and call that URL.`
        : `baseUrl ${JSON.stringify(baseUrl)} is not a URL: pass "https://api.example.com/v1" or "/v1".`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BaseUrlError(`baseUrl ${JSON.stringify(baseUrl)} must be an http(s) URL.`)
  }
  let basePath = url.pathname
  while (basePath.endsWith('/')) basePath = basePath.slice(0, -1)
  return { origin: url.origin, basePath }
}

/**
 * The RegExp msw matches against a request's origin and path: the base itself and everything below
 * it, never `/v10` for `/v1`. A RegExp rather than `${base}/*`, because msw percent-decodes the
 * wildcard of a string path and a malformed escape (`/pets/%E0`) would throw before the core could
 * answer it.
 */
export function toMatcher(base: ApiBase): RegExp {
  return new RegExp(`^${escapeRegExp(`${base.origin}${base.basePath}`)}(?:/.*)?$`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

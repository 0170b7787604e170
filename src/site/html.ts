import { constantFields, CORS_HEADERS, type PlainResponse } from '../service/http.js'
import { ASSETS_BASE } from './asset-file.js'

/** Where the stylesheet of the landing page and the dashboard is served. */
export const SITE_STYLE_PATH = `${ASSETS_BASE}site.css`

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Escapes text for HTML content and quoted attribute values.
 * @example escapeHtml('<b>Rex & Co</b>') // '&lt;b&gt;Rex &amp; Co&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)
}

/** What every HTML page of the fake needs around its body. */
export type HtmlDocument = {
  readonly title: string
  /** Extra markup for `<head>`, already escaped. */
  readonly head?: string
  /** The page's markup, already escaped. */
  readonly body: string
  readonly bodyClass: string
}

/** A whole HTML page with the site's stylesheet. */
export function htmlDocument(page: HtmlDocument): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${SITE_STYLE_PATH}">
${page.head ?? ''}
</head>
<body class="${escapeHtml(page.bodyClass)}">
${page.body}
</body>
</html>
`
}

// No other site may frame a page of the fake: framed, the dashboard's buttons (reset, seed) would
// be clicked through a page the user thinks is another (clickjacking). Both headers, for browsers
// that know only the older one.
const PAGE_HEADERS = constantFields({
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
})

/** A 200 answer with HTML, which no other site may frame. */
export function htmlResponse(html: string): PlainResponse {
  return { status: 200, headers: PAGE_HEADERS, body: html }
}

/** A 200 answer with any text type, CORS open like the documents. */
export function textResponse(type: string, body: string): PlainResponse {
  return { status: 200, headers: { 'content-type': `${type}; charset=utf-8`, 'x-content-type-options': 'nosniff', ...CORS_HEADERS }, body }
}

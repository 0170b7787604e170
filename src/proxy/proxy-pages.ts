import { apiError, toErrorResponse } from '../service/errors.js'
import { JSON_TYPE, type PlainResponse } from '../service/http.js'
import type { Page } from '../site/site.js'
import { isForeignOrigin } from '../site/site-guard.js'
import type { ProxyJournal } from './proxy-journal.js'
import { escapeHtml, htmlDocument, htmlResponse } from '../site/html.js'

/** Where the proxy shows what it saw: a page for people, JSON for scripts. */
export const PROXY_PATHS = { dashboard: '/dashboard', journal: '/__proxy/journal', violations: '/__proxy/violations' } as const

/**
 * The proxy's own pages beside `/docs` and the contract: `/` and `/dashboard` show the count of
 * exchanges and violations and the violations, newest first, refreshed every two seconds (a plain
 * page: the fake's dashboard drives a control API the proxy does not have).
 */
export function createProxyPages(journal: ProxyJournal, target: string): [string, Page][] {
  const page: Page = () => htmlResponse(dashboardHtml(journal, target))
  return [
    ['/', page],
    [PROXY_PATHS.dashboard, page],
    [PROXY_PATHS.journal, ownOriginOnly(() => ({ exchanges: journal.exchanges, violations: journal.violations, entries: journal.entries() }))],
    [PROXY_PATHS.violations, ownOriginOnly(() => ({ violations: journal.violations, entries: journal.violating() }))],
  ]
}

/** No web origins are opted in: the proxy has no --control-cors. */
const NO_ORIGINS: ReadonlySet<string> = new Set()

/**
 * JSON that only the proxy's own pages and tools without an `Origin` may read, as the control API
 * is, since it shows paths, queries and what the target answered: no CORS, and another web page's
 * request refused with 403.
 */
function ownOriginOnly(value: () => unknown): Page {
  return (request) => (isForeignOrigin(request, NO_ORIGINS) ? refuseForeignPage() : { status: 200, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value()) })
}

function refuseForeignPage(): PlainResponse {
  const refusal = toErrorResponse(apiError('origin_not_allowed', 'The proxy\'s journal answers its own pages and tools without an Origin, never another web page.'))
  return { ...refusal, headers: { 'content-type': JSON_TYPE } }
}

function dashboardHtml(journal: ProxyJournal, target: string): string {
  const rows = [...journal.violating()]
    .reverse()
    .flatMap((entry) =>
      entry.violations.map(
        (violation) =>
          `<tr data-testid="violation"><td>${entry.seq}</td><td>${escapeHtml(entry.method)}</td><td class="mono">${escapeHtml(entry.path + (entry.query === '' ? '' : `?${entry.query}`))}</td><td>${entry.status}</td><td>${escapeHtml(violation.aspect)}</td><td>${escapeHtml(violation.reason)}</td></tr>`,
      ),
    )
    .join('\n')
  return htmlDocument({
    title: 'Proxy · animals-mock',
    bodyClass: 'dashboard',
    head: '<meta http-equiv="refresh" content="2">',
    body: `<header class="top"><h1>animals-mock proxy</h1><nav><a href="/docs">API reference</a><a href="/openapi.yaml">openapi.yaml</a></nav></header>
<main class="narrow">
<section class="panel">
<h2>To ${escapeHtml(target)}</h2>
<p data-testid="proxy-counts">${journal.exchanges} exchanges, <strong data-testid="violation-count">${journal.violations}</strong> violations of the spec</p>
<p class="note">Every answer is judged by the spec's rules, the ones <code>animals-mock parity</code> uses. JSON: <a href="${PROXY_PATHS.violations}">${PROXY_PATHS.violations}</a>, <a href="${PROXY_PATHS.journal}">${PROXY_PATHS.journal}</a>.</p>
<table data-testid="violations"><thead><tr><th>seq</th><th>method</th><th>path</th><th>status</th><th>aspect</th><th>rule broken</th></tr></thead>
<tbody>${rows}</tbody></table>
</section>
</main>`,
  })
}

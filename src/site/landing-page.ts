import type { KeyPolicy } from '../service/auth.js'
import type { PlainRequest } from '../service/http.js'
import { API_BASE, type Page } from './site.js'
import { describeKeys } from './describe-keys.js'
import { escapeHtml, htmlDocument, htmlResponse } from './html.js'

/** What the landing page tells about this instance. */
export type LandingOptions = {
  readonly keys: KeyPolicy
  /** `off` under `--no-control`: no dashboard, no control document. */
  readonly control: 'open' | 'token' | 'off'
}

/**
 * The page at `/`: links to the reference, the dashboard and the documents, and how to
 * authenticate, with a curl example on the address the browser used.
 */
export function landingPage(options: LandingOptions): Page {
  return (request) => htmlResponse(renderLanding(options, originOf(request)))
}

// A Host that is anything but a host name or address (with port) is not echoed into the page.
const HOST = /^[A-Za-z0-9.\-]+(?::[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?$/

function originOf(request: PlainRequest): string {
  const host = request.headers.host
  return host !== undefined && HOST.test(host) ? `http://${host}` : 'http://127.0.0.1:4010'
}

function renderLanding(options: LandingOptions, origin: string): string {
  const api = escapeHtml(`${origin}${API_BASE}`)
  const token = options.keys.kind === 'any' ? 'dev-key' : '&lt;API key&gt;'
  const accepted =
    options.keys.kind === 'any'
      ? '<strong data-testid="key-policy">any non-empty bearer token</strong>: pick one, e.g. <code>dev-key</code>'
      : `<strong data-testid="key-policy">${escapeHtml(describeKeys(options.keys))}</strong>; ask whoever started it for one (keys are never shown)`
  const dashboard =
    options.control === 'off'
      ? '<li data-testid="dashboard-off">Dashboard: off, this fake runs with <code>--no-control</code></li>'
      : '<li><a href="/dashboard" data-testid="link-dashboard">Dashboard</a>: the animals in the store and the requests arriving, live; reset, seed, clear the journal</li>'
  const control =
    options.control === 'off'
      ? ''
      : `<li><a href="/__control/openapi.yaml" data-testid="link-control-document">Control API document</a>: reset, seed, snapshots, the journal, forced responses, latency under <code>/__control</code>${options.control === 'token' ? ' (requires <code>X-Control-Token</code>)' : ''}</li>`
  return htmlDocument({
    title: 'animals-mock',
    bodyClass: 'landing',
    body: `<header class="top"><h1>animals-mock</h1><nav><a href="/docs">API reference</a><a href="/dashboard">dashboard</a></nav></header>
<main class="narrow">
<section class="panel">
<p>A faithful, stateful fake of the <strong>animals service</strong>, interface v1.0.0. The API is at <code data-testid="api-base">${api}</code>.</p>
<ul class="links">
<li><a href="/docs" data-testid="link-docs">API reference</a>: every operation, with "try it" against this fake</li>
${dashboard}
<li><a href="/openapi.yaml" data-testid="link-openapi-yaml">OpenAPI document</a> (YAML), also as <a href="/openapi.json" data-testid="link-openapi-json">JSON</a></li>
${control}
<li><a href="/healthz">Health check</a></li>
</ul>
</section>
<section class="panel" data-testid="authenticate">
<h2>How to authenticate</h2>
<p>Every API request sends an API key as a bearer token: <code>Authorization: Bearer &lt;API key&gt;</code>.
Without an accepted key the API answers 401 with an Error body.</p>
<p>This instance accepts ${accepted}.</p>
<pre data-testid="curl-example">curl -H 'Authorization: Bearer ${token}' '${api}/pets?limit=5'</pre>
</section>
</main>`,
  })
}

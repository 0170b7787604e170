import { join } from 'node:path'
import { PACKAGE_ROOT } from '#package-root'
import type { Page } from './site.js'
import { assetFile, ASSET_TYPES, ASSETS_BASE } from './asset-file.js'
import { escapeHtml, htmlDocument, htmlResponse } from './html.js'
import { PET_STATUSES } from '../spec/animals-service.js'
import { MAX_DELAY_MS } from '../fake/latency.js'
import { CATEGORIES } from '../seed/categories.js'

/** Where the dashboard and its modules are served. */
export const DASHBOARD_PATHS = {
  page: '/dashboard',
  modules: `${ASSETS_BASE}dashboard/`,
} as const

/**
 * The dashboard's browser modules, compiled by `tsc` from `src/dashboard` to `dist/dashboard`.
 * Exact paths: the fake serves these files and nothing else from disk.
 */
export const DASHBOARD_MODULES = [
  'control-client',
  'dom',
  'forced-form',
  'format',
  'journal-panel',
  'main',
  'settings-panel',
  'store-panel',
  'store-picker',
  'token-prompt',
] as const

// The same folder whether this module runs from dist/node or, under vitest, from src/node.
const DASHBOARD_DIR = join(PACKAGE_ROOT, 'dist/dashboard/')

/**
 * The dashboard over the control API; with the control API removed, a page saying so instead, and
 * no modules.
 */
export function createDashboardPages(control: boolean): [string, Page][] {
  if (!control) return [[DASHBOARD_PATHS.page, () => htmlResponse(DISABLED_HTML)]]
  return [
    [DASHBOARD_PATHS.page, () => htmlResponse(DASHBOARD_HTML)],
    ...DASHBOARD_MODULES.map((name): [string, Page] => [
      `${DASHBOARD_PATHS.modules}${name}.js`,
      assetFile(`${DASHBOARD_DIR}${name}.js`, ASSET_TYPES['.js'], 'run npm run build'),
    ]),
  ]
}

const NAV = '<nav><a href="/">home</a><a href="/docs">API reference</a><a href="/openapi.yaml">openapi.yaml</a></nav>'

const DISABLED_HTML = htmlDocument({
  title: 'Dashboard · animals-mock',
  bodyClass: 'dashboard',
  body: `<header class="top"><h1>animals-mock dashboard</h1>${NAV}</header>
<main class="narrow">
<section class="panel" data-testid="controls-disabled">
<h2>The controls are disabled</h2>
<p>This fake runs with <code>--no-control</code>: its control API, which the dashboard reads and drives, is removed.
Start it without that option to watch requests arrive and reset or seed the store from here.</p>
<p>The API itself works as usual: see the <a href="/docs">API reference</a>.</p>
</section>
</main>`,
})

const METHOD_OPTIONS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => `<option>${method}</option>`).join('')

const STATUS_OPTIONS = PET_STATUSES.map((status) => `<option value="${status}">${status}</option>`).join('')

/** The fake's category names by id, for the animals table: the spec shows only `categoryId`. */
const CATEGORY_NAMES = escapeHtml(JSON.stringify(Object.fromEntries(CATEGORIES.map(({ id, name }) => [id, name]))))

/** The page sizes the animals table offers, the first by default. */
const PAGE_SIZES = [20, 50, 100, 500]

const PAGE_SIZE_OPTIONS = PAGE_SIZES.map((size) => `<option>${size}</option>`).join('')

const DASHBOARD_HTML = htmlDocument({
  title: 'Dashboard · animals-mock',
  bodyClass: 'dashboard',
  head: `<script type="module" src="${DASHBOARD_PATHS.modules}main.js"></script>`,
  body: `<header class="top"><h1>animals-mock dashboard</h1>${NAV}
<span class="live" data-testid="live-status" role="status">connecting…</span></header>
<form class="panel token" data-testid="token-form" hidden>
<label>This fake requires its control token (<code>X-Control-Token</code>), or with <code>--api-key</code> one of its API keys; it is kept in this tab only.
<input type="password" name="token" autocomplete="off" required data-testid="token-input"></label>
<button type="submit" data-testid="token-submit">Use token</button>
<span class="error" data-testid="token-error"></span>
</form>
<main class="grid">
<section class="panel wide" data-testid="controls-panel">
<fieldset class="controls" data-testid="controls" disabled>
<div>
<h2>Controls</h2>
<div class="actions">
<button type="button" data-testid="reset">Reset to the fixture</button>
<form data-testid="seed-form"><input type="number" min="1" max="1000000" value="100" required aria-label="how many animals" data-testid="seed-count">
<button type="submit" data-testid="seed">Seed animals</button></form>
<button type="button" data-testid="clear-journal">Clear the journal</button>
</div>
<p class="result" data-testid="action-result" role="status"></p>
<h3>Latency</h3>
<p data-testid="latency"></p>
<form class="fields" data-testid="latency-form">
<label>ms <input type="number" name="minMs" min="0" max="${MAX_DELAY_MS}" placeholder="800" data-testid="latency-min"></label>
<label>up to ms <input type="number" name="maxMs" min="0" max="${MAX_DELAY_MS}" placeholder="optional" data-testid="latency-max"></label>
<button type="submit" data-testid="latency-set">Set latency</button>
<button type="button" data-testid="latency-none">None</button>
</form>
</div>
<div>
<h3>Forced responses</h3>
<ul class="rules" data-testid="forced"></ul>
<button type="button" data-testid="clear-forced" hidden>Remove every rule</button>
<form class="fields" data-testid="force-form">
<label>method <select name="method" data-testid="force-method"><option value="">any</option>${METHOD_OPTIONS}</select></label>
<label>path <input name="path" placeholder="/pets/*" maxlength="1000" data-testid="force-path"></label>
<label>status <input type="number" name="status" min="400" max="599" placeholder="503" data-testid="force-status"></label>
<label>code <input name="code" placeholder="a usual one" maxlength="100" data-testid="force-code"></label>
<label class="long">message <input name="message" maxlength="1000" data-testid="force-message"></label>
<label>times <input type="number" name="times" min="1" placeholder="until removed" data-testid="force-times"></label>
<label>delay ms <input type="number" name="delayMs" min="0" max="${MAX_DELAY_MS}" data-testid="force-delay"></label>
<label class="check"><input type="checkbox" name="drop" data-testid="force-drop"> drop the connection</label>
<button type="submit" data-testid="force-submit">Add rule</button>
</form>
</div>
</fieldset>
</section>
<section class="panel" data-testid="store-panel">
<h2>Animals</h2>
<div class="toolbar">
<label data-testid="store-picker-label" hidden>Store <select data-testid="store-picker"><option value="">every store</option></select></label>
<label>Status <select data-testid="status-filter"><option value="">any</option>${STATUS_OPTIONS}</select></label>
<label>Per page <select data-testid="page-size">${PAGE_SIZE_OPTIONS}</select></label>
<form class="inline" data-testid="jump-form"><label>Go to id <input type="number" min="0" step="1" required data-testid="jump-id"></label><button type="submit" data-testid="jump">Go</button></form>
<form class="inline" data-testid="find-form"><label>Name <input type="search" maxlength="100" placeholder="part of a name" data-testid="find-name"></label><button type="submit" data-testid="find">Find</button></form>
</div>
<p class="counts" data-testid="counts"></p>
<p class="note" data-testid="store-note" hidden></p>
<table data-testid="animals" data-categories="${CATEGORY_NAMES}">
<thead><tr><th>id</th><th>name</th><th>category <small>(the fake's label)</small></th><th>status</th></tr></thead>
<tbody></tbody>
</table>
<div class="pager"><button type="button" data-testid="prev-page">← previous</button>
<span data-testid="page-info"></span>
<button type="button" data-testid="next-page">next →</button></div>
</section>
<section class="panel" data-testid="journal-panel">
<h2>Requests <small>to /v1, newest first, credentials redacted; click one for the request and its answer</small></h2>
<form class="toolbar" data-testid="journal-filter">
<label>Method <select data-testid="journal-method"><option value="">any</option>${METHOD_OPTIONS}</select></label>
<label>Status <input type="number" min="100" max="599" placeholder="any" data-testid="journal-status"></label>
<label>Path <input maxlength="1000" placeholder="/v1/pets" data-testid="journal-path"></label>
</form>
<pre class="detail" data-testid="journal-detail" hidden></pre>
<table data-testid="journal">
<thead><tr><th>seq</th><th>time</th><th>store</th><th>method</th><th>path</th><th>status</th><th>delay</th></tr></thead>
<tbody></tbody>
</table>
<p class="note" data-testid="journal-empty">No requests yet: call the API, e.g. from the <a href="/docs">API reference</a>.</p>
</section>
</main>`,
})

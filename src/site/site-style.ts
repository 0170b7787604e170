/** The stylesheet of the landing page and the dashboard: system fonts only, nothing fetched. */
export const SITE_CSS = `
:root { color-scheme: light; --ink: #1f2933; --muted: #616e7c; --line: #d9e2ec; --panel: #fff; --bg: #f5f7fa;
  --accent: #2563eb; --ok: #15803d; --warn: #b45309; --bad: #b91c1c; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
code, pre, td.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 24px; padding: 10px 20px; background: #1f2933; color: #e4e7eb; }
header.top h1 { font-size: 18px; margin: 0; }
header.top nav a { color: #9fd3ff; margin-right: 16px; }
header.top .live { margin-left: auto; font-size: 13px; }
.live.ok::before { content: "● "; color: #4ade80; }
.live.bad::before { content: "● "; color: #f87171; }
main.narrow { max-width: 860px; margin: 20px auto; padding: 0 16px; }
main.grid { display: grid; grid-template-columns: minmax(0, 5fr) minmax(0, 6fr); gap: 16px; padding: 16px 20px; align-items: start; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; }
main.grid .panel { margin-bottom: 0; }
.panel.wide { grid-column: 1 / -1; }
fieldset.controls { border: 0; padding: 0; margin: 0; min-width: 0; display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
fieldset.controls > div > h3:first-child { margin-top: 0; }
.fields { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: end; margin-top: 8px; }
.fields label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
.fields input, .fields select { font: inherit; width: 110px; max-width: 100%; }
.fields label.long input { width: 220px; }
.fields label.check { flex-direction: row; align-items: center; gap: 4px; }
.fields label.check input { width: auto; }
.panel h2 { font-size: 16px; margin: 0 0 8px; }
.panel h2 small { font-weight: normal; color: var(--muted); }
.panel h3 { font-size: 14px; margin: 16px 0 4px; }
pre { background: #1f2933; color: #e4e7eb; padding: 10px 12px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
ul.links li { margin: 4px 0; }
.toolbar { display: flex; gap: 16px; margin-bottom: 8px; }
.counts span { margin-right: 12px; }
.note { color: var(--muted); }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; }
td { overflow-wrap: anywhere; }
td.nowrap { white-space: nowrap; overflow-wrap: normal; }
table.one-store th:nth-child(3), table.one-store td:nth-child(3) { display: none; }
tbody tr:nth-child(even) { background: #f9fafb; }
table[data-testid="journal"] tbody tr { cursor: pointer; }
table[data-testid="journal"] tbody tr:hover { background: #eef2ff; }
.pager { display: flex; align-items: center; gap: 12px; margin-top: 8px; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.actions form { display: flex; gap: 4px; }
.actions input { width: 90px; }
button { font: inherit; padding: 4px 10px; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--accent); }
button:disabled { opacity: 0.5; cursor: default; }
.result { min-height: 1.5em; margin: 8px 0 0; color: var(--muted); }
.result.bad, .error { color: var(--bad); }
.s2 { color: var(--ok); } .s3 { color: var(--accent); } .s4 { color: var(--warn); } .s5, .sdrop { color: var(--bad); }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; background: #e4e7eb; }
.badge.available { background: #dcfce7; } .badge.pending { background: #fef3c7; } .badge.sold { background: #e0e7ff; }
ul.rules { padding-left: 18px; margin: 4px 0; }
form.token { margin: 16px 20px; display: flex; gap: 8px; align-items: end; flex-wrap: wrap; }
@media (max-width: 1000px) { main.grid, fieldset.controls { grid-template-columns: 1fr; } }
@media (max-width: 600px) {
  header.top, main.grid { padding-left: 8px; padding-right: 8px; }
  .panel { padding: 10px; }
  th, td { padding: 4px; }
  .toolbar { flex-wrap: wrap; }
  /* Phone width: the journal keeps time, method, path and status; the rest is one click away. */
  table[data-testid="journal"] th:nth-child(1), table[data-testid="journal"] td:nth-child(1),
  table[data-testid="journal"] th:nth-child(3), table[data-testid="journal"] td:nth-child(3),
  table[data-testid="journal"] th:nth-child(7), table[data-testid="journal"] td:nth-child(7) { display: none; }
}
`

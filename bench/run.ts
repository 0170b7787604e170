/**
 * `npm run bench`: the fake against a bare node:http server answering the same bytes, flatness as
 * the store grows, memory, seeding, start-up and the msw path. Loopback only, bounded in time
 * (about 10 minutes; BENCH_QUICK=1 for about 2). Ratios count, absolute numbers do not: the machine
 * is shared and noisy, so every comparison is measured side by side in the same run, medians of
 * several runs. Prints markdown tables and a verdict per target; exits 1 when one is missed.
 */
import { spawn } from 'node:child_process'
import { cpus } from 'node:os'
import { measureMswOverhead } from './msw.js'
import { measureProxyLatency } from './proxy.js'
import { HOSTILE_ADDED_MS, measureHostileProxy } from './proxy-hostile.js'
import { measureRecordingOverhead } from './recording.js'
import { measureResponsiveness } from './responsiveness.js'
import { LOOP_BUDGET_MS, measureSharedFake } from './shared-fake.js'
import { CLI, PINNING, pinLoadHere } from './processes.js'
import { compareStartup } from './startup.js'
import { compareStoreSizes, STORE_SIZES } from './store-size.js'
import { LOAD_GENERATOR } from './load.js'
import { compareWithBare } from './throughput.js'

const QUICK = process.env.BENCH_QUICK === '1'
// Many short rounds rather than a few long ones: the noise of this shared machine drifts over
// seconds, so a 1 s load is no noisier than a 2 s one (measured: two identical fakes, per-round
// ratios spread alike), and more rounds make the medians steadier.
const RUNS = QUICK ? 3 : 22
const SECONDS = 1
const verdicts: { readonly target: string; readonly measured: string; readonly held: boolean }[] = []
const verdict = (target: string, measured: string, held: boolean): void => void verdicts.push({ target, measured, held })
const fixed = (value: number, digits = 2): string => value.toFixed(digits)
const rps = (value: number): string => Math.round(value).toLocaleString('en-US')

pinLoadHere()
console.log(`# animals-mock benchmark\n`)
console.log(`Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${LOAD_GENERATOR}, 32 connections, loopback; ${RUNS} rounds of ${SECONDS} s per figure, medians; ${PINNING}.\n`)

console.log('## Fake against bare node:http servers (fixture `large`, 10,000 animals)\n')
console.log('The fake as `serve` starts it (request logs on, to /dev/null); the bare servers answer the same status, headers and body from precomputed bytes. "batched" writes the answers of one turn of the event loop together, as the fake does; "inline" writes each as it is handled, as a plain node:http server does. The verdict compares with the faster, batched one. Ratios are medians of the rounds\' ratios.\n')
console.log('| route | bare batched req/s | bare inline req/s | fake req/s | bare batched p50 / p99 ms | fake p50 / p99 ms | fake / bare batched | fake / bare inline | target |')
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const { route, bare, inlineBare, fake, ratio, inlineRatio } of await compareWithBare(RUNS, SECONDS)) {
  console.log(
    `| \`${route.name}\` | ${rps(bare.rps)} | ${rps(inlineBare.rps)} | ${rps(fake.rps)} | ${fixed(bare.p50)} / ${fixed(bare.p99)} | ${fixed(fake.p50)} / ${fixed(fake.p99)} | **${fixed(ratio)}** | ${fixed(inlineRatio)} | ≥ ${route.target} |`,
  )
  verdict(`fake / bare (batched) on ${route.name} ≥ ${route.target}`, fixed(ratio, 3), ratio >= route.target && fake.errors === 0)
}

console.log('\n## As the store grows (fake only, the animal asked for by id in the middle)\n')
const sizes = await compareStoreSizes(RUNS, SECONDS)
const routeNames = ['GET ?limit=20', 'GET ?status=sold&limit=100', 'GET /{id}', 'POST']
console.log(`| animals | ${routeNames.join(' req/s | ')} req/s | resident memory | seeding |`)
console.log(`|---:|${routeNames.map(() => '---:').join('|')}|---:|---:|`)
for (const { size, routes, rssBytes, seedMs } of sizes) {
  console.log(`| ${rps(size)} | ${routes.map((route) => rps(route.rps)).join(' | ')} | ${fixed(rssBytes / 1024 / 1024, 0)} MB | ${fixed(seedMs / 1000, 1)} s |`)
}
console.log(`\nThroughput against the 1,000-animal store (per round, each size's share of the round's mean; medians): ${routeNames
  .map((name, r) => `${name} ${sizes.map((size) => fixed(size.relative[r] ?? 0)).join(' / ')}`)
  .join('; ')}`)
for (const [r, name] of routeNames.entries()) {
  const relative = sizes.map((size) => size.relative[r] ?? 0)
  const spread = (Math.max(...relative) - Math.min(...relative)) / Math.max(...relative)
  verdict(`${name}: 1k, 100k and 1M within 10% of each other`, `${fixed(spread * 100, 1)}% apart`, spread <= 0.1)
}
const million = sizes.find((size) => size.size === STORE_SIZES[2])
verdict('1M animals in at most 300 MB resident memory', `${fixed((million?.rssBytes ?? 0) / 1024 / 1024, 0)} MB`, (million?.rssBytes ?? Number.POSITIVE_INFINITY) <= 300 * 1024 * 1024)
verdict('seeding 1M animals into the running fake takes at most 10 s', `${fixed((million?.seedMs ?? 0) / 1000, 1)} s`, (million?.seedMs ?? Number.POSITIVE_INFINITY) <= 10_000)

const cliSeedMs = await new Promise<number>((resolve, reject) => {
  const started = performance.now()
  const child = spawn(process.execPath, [CLI, 'seed', '--count', '1000000', '--seed', '1', '--out', '/dev/null'], { stdio: 'ignore' })
  child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`seed exited with ${code}`))))
})
console.log(`\n\`animals-mock seed --count 1000000\` (generate and write a fixture): ${fixed(cliSeedMs / 1000, 1)} s`)
verdict('`animals-mock seed --count 1000000` takes at most 10 s', `${fixed(cliSeedMs / 1000, 1)} s`, cliSeedMs <= 10_000)

console.log('\n## Responsiveness: GET /healthz every 5 ms while the fake takes in a million animals\n')
console.log('| while | samples | p50 ms | p99 ms | longest ms | target |\n|---|---:|---:|---:|---:|---:|')
for (const figure of await measureResponsiveness()) {
  console.log(`| ${figure.work} | ${figure.samples} | ${fixed(figure.p50)} | ${fixed(figure.p99)} | ${fixed(figure.max)} | p99 ≤ 100 |`)
  verdict(`/healthz p99 while ${figure.work} ≤ 100 ms`, `${fixed(figure.p99)} ms`, figure.p99 <= 100)
}

console.log('\n## One fake shared by teams: GET /healthz every 5 ms while they read what is heaviest to read (`npm run bench:shared`)\n')
console.log('| store | while | fake /healthz p50 / p99 / longest ms | bare p50 / p99 / longest ms | target |\n|---|---|---:|---:|---:|')
for (const { store, work, fake, bare } of await measureSharedFake(QUICK ? 1 : 3)) {
  console.log(`| ${store} | ${work} | ${fixed(fake.p50, 1)} / **${fixed(fake.p99, 1)}** / ${fixed(fake.max, 1)} | ${fixed(bare.p50, 1)} / ${fixed(bare.p99, 1)} / ${fixed(bare.max, 1)} | p99 ≤ ${LOOP_BUDGET_MS} |`)
  verdict(`/healthz p99 (${store}) while ${work} ≤ ${LOOP_BUDGET_MS} ms`, `${fixed(fake.p99)} ms`, fake.p99 <= LOOP_BUDGET_MS)
}

console.log('\n## Start-up: spawn to the first 200 from GET /v1/pets (default fixture)\n')
const startup = await compareStartup(QUICK ? 5 : 11)
console.log('| bare node:http | animals-mock serve | fake / bare | target |\n|---:|---:|---:|---:|')
console.log(`| ${fixed(startup.bareMs, 0)} ms | ${fixed(startup.fakeMs, 0)} ms | **${fixed(startup.ratio)}** | ≤ 2 |`)
verdict('start-up fake / bare ≤ 2', fixed(startup.ratio, 3), startup.ratio <= 2)

console.log('\n## msw: the fake\'s handlers against a constant handler, same process (setupServer)\n')
console.log('| route | requests | fake | constant | fake / constant | target |\n|---|---:|---:|---:|---:|---:|')
for (const figure of await measureMswOverhead(QUICK ? { requests: 2_000, rounds: 1, warmUp: 500 } : { requests: 5_000, rounds: 3, warmUp: 1_000 })) {
  console.log(`| \`${figure.route}\` | ${rps(figure.requests)} | ${fixed(figure.fakeMs, 0)} ms | ${fixed(figure.constantMs, 0)} ms | **${fixed(figure.ratio)}** | ≤ 1.5 |`)
  verdict(`msw ${figure.route}: fake / constant ≤ 1.5`, fixed(figure.ratio, 3), figure.ratio <= 1.5)
}

console.log('\n## Recording a pact from msw traffic (createHandlers with recordPact against without)\n')
const recording = await measureRecordingOverhead(QUICK ? 2_000 : 6_000, QUICK ? 3 : 15)
console.log('Rounds alternate the two; the ratio is the median of the rounds\' ratios.\n')
console.log('| requests a round | plain | recording | recording / plain | target |\n|---:|---:|---:|---:|---:|')
console.log(`| ${rps(recording.requests)} | ${fixed(recording.plainMs, 0)} ms | ${fixed(recording.recordingMs, 0)} ms | **${fixed(recording.ratio)}** | ≤ 1.1 |`)
verdict('recording a pact / plain msw ≤ 1.1', fixed(recording.ratio, 3), recording.ratio <= 1.1)

console.log('\n## The proxy: GET /v1/pets/{id} to the fake directly and through animals-mock proxy, one at a time\n')
const proxied = await measureProxyLatency(QUICK ? 500 : 2_000, QUICK ? 3 : 5)
console.log('| requests each | direct p50 | through the proxy p50 | added p50 | target |\n|---:|---:|---:|---:|---:|')
console.log(`| ${rps(proxied.requests)} | ${fixed(proxied.directP50Ms, 3)} ms | ${fixed(proxied.proxiedP50Ms, 3)} ms | **${fixed(proxied.addedP50Ms, 3)} ms** | ≤ 1 ms |`)
verdict('the proxy adds at most 1 ms p50', `${fixed(proxied.addedP50Ms, 3)} ms`, proxied.addedP50Ms <= 1)

console.log('\n## The proxy in front of a hostile target: GET /healthz every 5 ms, the proxy then a bare server, during the same work\n')
console.log('| while | probes | proxy p99 | bare p99 | added | target |\n|---|---:|---:|---:|---:|---:|')
for (const figure of await measureHostileProxy(QUICK ? 1 : 3)) {
  console.log(`| ${figure.work} | ${figure.samples} | ${fixed(figure.proxyP99, 1)} ms | ${fixed(figure.bareP99, 1)} ms | **${fixed(figure.addedMs, 1)} ms** | ≤ ${HOSTILE_ADDED_MS} ms |`)
  verdict(`proxy /healthz p99 while ${figure.work}: within ${HOSTILE_ADDED_MS} ms of bare`, `${fixed(figure.addedMs, 1)} ms`, figure.addedMs <= HOSTILE_ADDED_MS)
}

console.log('\n## Verdicts\n')
for (const { target, measured, held } of verdicts) console.log(`- ${held ? 'PASS' : 'FAIL'} ${target}: ${measured}`)
process.exitCode = verdicts.every(({ held }) => held) ? 0 : 1

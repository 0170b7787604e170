/**
 * Soak: 60 s of mixed load (80% reads, 20% creates) against the built CLI, then 20 s of reads only.
 * Memory may grow with the animals stored and with nothing else; afterwards the fake must answer
 * normally. `npm run soak` (SOAK_SECONDS to change the length). Loopback only.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const KEY = 'soak-key'
const MIXED_SECONDS = Number(process.env.SOAK_SECONDS ?? 60)
const READ_SECONDS = Math.max(10, Math.round(MIXED_SECONDS / 3))
const CONNECTIONS = 32
// A stored animal takes about 250 bytes of heap; resident memory also holds the garbage V8 has not
// collected yet and the room it grows the heap by, so the ceiling is eight times that.
const MAX_BYTES_PER_ANIMAL = 2000
// Reads store nothing: their phase may grow by at most this much (heap settling, socket buffers).
const READ_SLACK_BYTES = 24 * 1024 * 1024

type Phase = { readonly name: string; readonly requests: number; readonly errors: number; readonly p99: number; readonly rss: readonly number[] }

const server = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--api-key', KEY], { stdio: ['ignore', 'pipe', 'inherit'] })
const origin = await new Promise<string>((resolve, reject) => {
  let output = ''
  server.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text
    const match = /^animals-mock listening on (http:\/\/\S+)\/v1$/m.exec(output)
    if (match?.[1] !== undefined) resolve(match[1])
  })
  server.on('exit', () => reject(new Error(`the server exited: ${output}`)))
})
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }

function rss(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

async function animals(): Promise<number> {
  const response = await fetch(`${origin}/__control`, { headers })
  return ((await response.json()) as { animals: number }).animals
}

/** One cycle of ten requests per connection: `creates` of them add an animal, the rest read. */
function cycle(creates: number, known: number): autocannon.Request[] {
  const create: autocannon.Request = { method: 'POST', path: '/v1/pets', body: JSON.stringify({ name: 'Soak', categoryId: 2, status: 'available' }) }
  const reads: autocannon.Request[] = [
    { method: 'GET', path: '/v1/pets?limit=20' },
    { method: 'GET', path: '/v1/pets?status=sold&limit=100' },
    { method: 'GET', path: '/v1/pets/1', setupRequest: (request) => ({ ...request, path: `/v1/pets/${1 + Math.floor(Math.random() * known)}` }) },
  ]
  return Array.from({ length: 10 }, (_, i) => (i < creates ? create : (reads[i % reads.length] as autocannon.Request)))
}

async function load(name: string, seconds: number, creates: number): Promise<Phase> {
  const samples: number[] = [rss()]
  const sampler = setInterval(() => samples.push(rss()), 1000)
  const result = await autocannon({ url: origin, connections: CONNECTIONS, duration: seconds, headers, requests: cycle(creates, await animals()) })
  clearInterval(sampler)
  samples.push(rss())
  return { name, requests: result.requests.total, errors: result.non2xx + result.errors + result.timeouts, p99: result.latency.p99, rss: samples }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const verdicts: [string, boolean][] = []
try {
  await load('warm-up', 5, 2)
  const startAnimals = await animals()
  const mixed = await load('mixed: 80% reads, 20% creates', MIXED_SECONDS, 2)
  const midAnimals = await animals()
  const reads = await load('reads only', READ_SECONDS, 0)
  const endAnimals = await animals()
  const created = midAnimals - startAnimals
  const mixedGrowth = (mixed.rss.at(-1) ?? 0) - (mixed.rss[0] ?? 0)
  const readGrowth = (reads.rss.at(-1) ?? 0) - (reads.rss[0] ?? 0)
  for (const phase of [mixed, reads]) {
    console.log(
      `${phase.name}: ${phase.requests} requests (${Math.round(phase.requests / (phase === mixed ? MIXED_SECONDS : READ_SECONDS))}/s), ` +
        `${phase.errors} errors, p99 ${phase.p99} ms, RSS ${mb(phase.rss[0] ?? 0)} -> ${mb(phase.rss.at(-1) ?? 0)} (peak ${mb(Math.max(...phase.rss))})`,
    )
  }
  console.log(`animals: ${startAnimals} -> ${midAnimals} -> ${endAnimals}; ${created} created`)
  const perAnimal = created === 0 ? Number.POSITIVE_INFINITY : mixedGrowth / created
  console.log(`memory growth per created animal in the mixed phase: ${Math.round(perAnimal)} bytes`)
  verdicts.push([`no errors under load (${mixed.errors + reads.errors})`, mixed.errors + reads.errors === 0])
  verdicts.push([`mixed phase grew at most ${MAX_BYTES_PER_ANIMAL} bytes per animal stored (${Math.round(perAnimal)})`, perAnimal <= MAX_BYTES_PER_ANIMAL])
  verdicts.push([`reads stored nothing (${endAnimals - midAnimals} animals) and grew memory by at most ${mb(READ_SLACK_BYTES)} (${mb(readGrowth)})`, endAnimals === midAnimals && readGrowth <= READ_SLACK_BYTES])
  const listed = await fetch(`${origin}/v1/pets`, { headers })
  const posted = await fetch(`${origin}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'After', categoryId: 1 }) })
  const id = ((await posted.json()) as { id: number }).id
  const got = await fetch(`${origin}/v1/pets/${id}`, { headers })
  verdicts.push([`answers normally afterwards (list ${listed.status}, create ${posted.status}, get ${got.status})`, listed.status === 200 && posted.status === 201 && got.status === 200])
} finally {
  server.kill('SIGTERM')
}
for (const [text, held] of verdicts) console.log(`${held ? 'PASS' : 'FAIL'} ${text}`)
process.exitCode = verdicts.every(([, held]) => held) ? 0 : 1

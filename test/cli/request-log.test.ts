import { expect, it, vi } from 'vitest'
import { BATCH_BYTES, BATCH_MS, clockText, createBatchedWriter, createRequestLog, toJsonLine, toTextLine, useColour } from '../../src/cli/request-log.js'
import type { Exchange } from '../../src/node/server.js'

const at = new Date(2026, 0, 1, 12, 0, 1, 250)
const get: Exchange = { method: 'GET', path: '/v1/pets', status: 200, durationMs: 1.234 }

it('formats one readable line per request: time, method, path, status, duration', () => {
  expect(toTextLine(get, clockText(at), false)).toBe('12:00:01 GET /v1/pets 200 1.2ms\n')
  expect(toTextLine({ ...get, status: null, durationMs: 3 }, clockText(at), false)).toBe('12:00:01 GET /v1/pets dropped 3.0ms\n')
})

it('colours the status by its class only when asked', () => {
  const colours = [200, 302, 404, 503, null].map((status) => /\u001b\[(\d+)m/.exec(toTextLine({ ...get, status }, clockText(at), true))?.[1])
  expect(colours).toEqual(['32', '36', '33', '31', '35'])
  expect(toTextLine(get, clockText(at), true)).toContain('\u001b[0m 1.2ms')
})

it('uses colours on a terminal only, and never with NO_COLOR set', () => {
  expect(useColour(true, {})).toBe(true)
  expect(useColour(false, {})).toBe(false)
  expect(useColour(undefined, {})).toBe(false)
  expect(useColour(true, { NO_COLOR: '1' })).toBe(false)
  expect(useColour(true, { NO_COLOR: '' })).toBe(true)
})

it('formats one JSON object per line for machines', () => {
  expect(JSON.parse(toJsonLine(get, at))).toEqual({ time: at.toISOString(), method: 'GET', path: '/v1/pets', status: 200, durationMs: 1.2 })
  expect(toJsonLine(get, at).endsWith('}\n')).toBe(true)
})

it('leaves out successful reads of the control API and of page assets, and keeps everything else', () => {
  const lines: string[] = []
  const log = createRequestLog({ format: 'text', colour: false, write: (line) => lines.push(line), now: () => at.getTime() })
  for (const exchange of [
    { ...get, path: '/__control/journal' },
    { ...get, path: '/assets/dashboard/main.js' },
    { ...get, path: '/__control/journal', status: 401 },
    { ...get, method: 'POST', path: '/__control/reset' },
    { ...get, path: '/dashboard' },
    get,
  ]) {
    log(exchange)
  }
  expect(lines.map((line) => line.split(' ').slice(1, 4).join(' '))).toEqual([
    'GET /__control/journal 401',
    'POST /__control/reset 200',
    'GET /dashboard 200',
    'GET /v1/pets 200',
  ])
})

it('never lets a path put control characters on the terminal', () => {
  expect(toTextLine({ ...get, path: '/v1/\u001b[2Jpets' }, clockText(at), false)).toBe('12:00:01 GET /v1/?[2Jpets 200 1.2ms\n')
})

it('writes the lines gathered over a short while at once, in order, and flushes on demand', async () => {
  vi.useFakeTimers()
  try {
    const writes: string[] = []
    const out = createBatchedWriter((bytes) => writes.push(Buffer.from(bytes).toString('utf8')))
    out.write('a\n')
    vi.advanceTimersByTime(BATCH_MS - 1)
    out.write('b\n')
    expect(writes).toEqual([])
    vi.advanceTimersByTime(1)
    expect(writes).toEqual(['a\nb\n'])
    out.write('c\n')
    out.flush()
    expect(writes).toEqual(['a\nb\n', 'c\n'])
    vi.advanceTimersByTime(BATCH_MS)
    expect(writes).toHaveLength(2)
  } finally {
    vi.useRealTimers()
  }
})

it('sends a full batch early, keeps every line whole, and passes a line larger than a batch on alone', () => {
  vi.useFakeTimers()
  try {
    const writes: string[] = []
    const sizes: number[] = []
    const out = createBatchedWriter((bytes) => {
      sizes.push(bytes.length)
      writes.push(Buffer.from(bytes).toString('utf8'))
    })
    const line = `GET /v1/pets/ünïcödé-${'x'.repeat(1000)}\n`
    const lines = Array.from({ length: 200 }, (_, i) => `${i} ${line}`)
    for (const each of lines) out.write(each)
    // 200 lines of about 1 kB fill more than three batches, sent before the timer fires.
    expect(writes.length).toBeGreaterThanOrEqual(3)
    for (const size of sizes) expect(size).toBeLessThanOrEqual(BATCH_BYTES)
    const huge = `${'y'.repeat(BATCH_BYTES)}\n`
    out.write(huge)
    vi.advanceTimersByTime(BATCH_MS)
    expect(writes.join('')).toBe([...lines, huge].join(''))
    expect(writes.at(-1)).toBe(huge)
    for (const batch of writes) expect(batch.endsWith('\n')).toBe(true)
  } finally {
    vi.useRealTimers()
  }
})

it('makes the clock text once per second, and anew when the second changes', () => {
  const lines: string[] = []
  let time = at.getTime()
  const log = createRequestLog({ format: 'text', colour: false, write: (line) => lines.push(line), now: () => time })
  log(get)
  time += 400
  log(get)
  time += 700
  log(get)
  expect(lines.map((line) => line.split(' ')[0])).toEqual(['12:00:01', '12:00:01', '12:00:02'])
})

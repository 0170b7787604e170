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

it('leaves out successful GET and HEAD reads of /__control itself and below it, up to status 399', () => {
  const lines: string[] = []
  const log = createRequestLog({ format: 'text', colour: false, write: (line) => lines.push(line), now: () => at.getTime() })
  for (const exchange of [
    { ...get, path: '/__control' },
    { ...get, method: 'HEAD', path: '/__control/journal' },
    { ...get, method: 'HEAD', path: '/assets/site.css' },
    { ...get, path: '/__control/journal', status: 399 },
    { ...get, path: '/__control/journal', status: 400 },
    { ...get, path: '/__control/journal', status: null },
    { ...get, path: '/__controlled' },
    { ...get, method: 'OPTIONS', path: '/__control/journal' },
  ]) {
    log(exchange)
  }
  expect(lines.map((line) => line.split(' ').slice(1, 4).join(' '))).toEqual([
    'GET /__control/journal 400',
    'GET /__control/journal dropped',
    'GET /__controlled 200',
    'OPTIONS /__control/journal 200',
  ])
})

it('writes JSON Lines with the time the request ended, and leaves out the same quiet reads', () => {
  const lines: string[] = []
  const log = createRequestLog({ format: 'json', colour: false, write: (line) => lines.push(line), now: () => at.getTime() })
  log({ ...get, path: '/__control/journal' })
  log({ ...get, status: null, durationMs: 0.04 })
  expect(lines).toEqual([`{"time":"${at.toISOString()}","method":"GET","path":"/v1/pets","status":null,"durationMs":0}\n`])
})

it('keeps a line that exactly fills the batch with the lines before it', () => {
  vi.useFakeTimers()
  try {
    const writes: string[] = []
    const out = createBatchedWriter((bytes) => writes.push(Buffer.from(bytes).toString('utf8')))
    // 1 byte, then a line whose worst case (3 bytes a unit) takes the rest of the batch exactly.
    const fill = 'z'.repeat((BATCH_BYTES - 1) / 3)
    expect(1 + fill.length * 3).toBe(BATCH_BYTES)
    out.write('a')
    out.write(fill)
    expect(writes).toEqual([])
    vi.advanceTimersByTime(BATCH_MS)
    expect(writes).toEqual([`a${fill}`])
  } finally {
    vi.useRealTimers()
  }
})

it('starts a new batch with the line that did not fit, sent when its own wait is over', () => {
  vi.useFakeTimers()
  try {
    const writes: string[] = []
    const out = createBatchedWriter((bytes) => writes.push(Buffer.from(bytes).toString('utf8')))
    // A batch keeps room for 3 bytes a unit: two lines of a third of it do not fit together.
    const [first, second] = ['1'.repeat(Math.floor(BATCH_BYTES / 3)), '2'.repeat(Math.floor(BATCH_BYTES / 3))]
    out.write(first)
    out.write(second)
    expect(writes).toEqual([first])
    vi.advanceTimersByTime(BATCH_MS)
    expect(writes).toEqual([first, second])
  } finally {
    vi.useRealTimers()
  }
})

it('holds a line written after a batch went out for a whole wait of its own', () => {
  vi.useFakeTimers()
  try {
    const writes: string[] = []
    const out = createBatchedWriter((bytes) => writes.push(Buffer.from(bytes).toString('utf8')))
    out.write('a\n')
    vi.advanceTimersByTime(BATCH_MS - 1)
    out.write('b\n')
    vi.advanceTimersByTime(1)
    expect(writes).toEqual(['a\nb\n'])
    vi.advanceTimersByTime(10)
    out.write('c\n')
    // A timer set for "b" would have sent "c" at 2 * BATCH_MS - 1; it waits until 60 + BATCH_MS.
    vi.advanceTimersByTime(BATCH_MS - 1)
    expect(writes).toEqual(['a\nb\n'])
    vi.advanceTimersByTime(1)
    expect(writes).toEqual(['a\nb\n', 'c\n'])
  } finally {
    vi.useRealTimers()
  }
})

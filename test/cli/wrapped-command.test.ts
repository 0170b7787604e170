import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, expect, it } from 'vitest'
import { LEFTOVER_GRACE_MS, runCommand } from '../../src/cli/wrapped-command.js'
import { type CliProcess, runCli, spawnCli } from '../support/cli.js'
import { shippedPets } from '../support/fixtures.js'
import { type IndependentService, startIndependentService } from '../support/independent-service/service.js'

// `serve ... -- <command>` and `proxy ... -- <command>`, as a CI job runs them: the built CLI
// starts, runs the command with the base URL in ANIMALS_MOCK_URL, and stops when it ends.

const KEY = 'wrapped-key-5c1e'
const running: CliProcess[] = []
const services: IndependentService[] = []
afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill('SIGKILL')
})
afterAll(() => Promise.all(services.map((service) => service.close())))

/** `node -e <script>` as the wrapped command. */
const node = (script: string): string[] => ['--', process.execPath, '-e', script]

/** A command that lists through the base URL it was given, prints what it saw, and exits with `code`. */
const lists = (code: number): string[] =>
  node(`
    const base = process.env.ANIMALS_MOCK_URL
    fetch(base + '/pets?limit=3', { headers: { authorization: 'Bearer ${KEY}' } })
      .then((response) => response.json())
      .then((pets) => { console.log('command saw ' + pets.length + ' animals at ' + base); process.exit(${code}) })`)

/** A command that creates one animal through the base URL, then exits with `code`. */
const creates = (code: number): string[] =>
  node(`
    fetch(process.env.ANIMALS_MOCK_URL + '/pets', {
      method: 'POST',
      headers: { authorization: 'Bearer ${KEY}', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Wrapped', categoryId: 1, status: 'sold' }),
    }).then((response) => { console.log('command created: ' + response.status); process.exit(${code}) })`)

/** A command that says it is ready, then waits; on SIGTERM or SIGINT it says so and exits with 7. */
const waits = node(`
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => { console.log('command got ' + signal); process.exit(7) })
  console.log('command ready at ' + process.env.ANIMALS_MOCK_URL)
  setInterval(() => {}, 1000)`)

async function until(cli: CliProcess, text: string): Promise<void> {
  for (let i = 0; i < 2000 && !cli.stdout().includes(text); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(cli.stdout()).toContain(text)
}

const bannerUrl = (stdout: string): string => /^animals-mock listening on (\S+)$/m.exec(stdout)?.[1] ?? 'no banner'

async function target(drift?: 'createPet answers 200'): Promise<string> {
  const service = await startIndependentService({ keys: [KEY], seeded: 30, ...(drift === undefined ? {} : { drift }) })
  services.push(service)
  return service.baseUrl
}

it('serve: runs the command once ready with the base URL in ANIMALS_MOCK_URL, stops when it ends, and exits 0', async () => {
  const run = await runCli(['serve', '--port', '0', '--quiet', ...lists(0)])
  expect(run.code, run.stderr).toBe(0)
  const url = bannerUrl(run.stdout)
  expect(run.stdout).toContain(`command saw 3 animals at ${url}\n`)
  expect(run.stdout.indexOf('animals-mock listening on')).toBeLessThan(run.stdout.indexOf('command saw'))
  expect(run.stdout.endsWith('animals-mock stopped\n')).toBe(true)
  // Nothing is left listening.
  await expect(fetch(`${url}/pets`)).rejects.toThrow()
})

it('serve: exits with the command\'s failure, after the graceful stop (the state file written)', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'wrapped-state-')), 'state.json')
  const run = await runCli(['serve', '--port', '0', '--quiet', '--state-file', file, ...creates(3)])
  expect(run.code).toBe(3)
  expect(run.stdout).toContain('command created: 201')
  expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(shippedPets('default').length + 1)
})

for (const [signal, name] of [['SIGTERM', 'SIGTERM'], ['SIGINT', 'SIGINT']] as const) {
  it(`serve: passes ${name} on to the command, then stops cleanly with the command's exit code`, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wrapped-signal-')), 'state.json')
    const cli = spawnCli(['serve', '--port', '0', '--quiet', '--state-file', file, ...waits])
    running.push(cli)
    await until(cli, 'command ready at http://')
    cli.child.kill(signal)
    expect(await cli.exited).toBe(7)
    expect(cli.stdout()).toContain(`command got ${name}`)
    expect(cli.stdout().endsWith('animals-mock stopped\n')).toBe(true)
    expect(existsSync(file)).toBe(true)
  })
}

it('serve: a command ended by a signal exits 128 plus its number, as a shell says', async () => {
  const run = await runCli(['serve', '--port', '0', '--quiet', ...node("process.kill(process.pid, 'SIGTERM')")])
  expect(run.code).toBe(143)
})

it('serve: a command that does not exist is one line and 127; -- with nothing after is one line and 2', async () => {
  const missing = await runCli(['serve', '--port', '0', '--quiet', '--', 'no-such-command-4e1a'])
  expect(missing.code).toBe(127)
  expect(missing.stderr).toBe('animals-mock: cannot run no-such-command-4e1a: no such command\n')
  expect(missing.stdout.endsWith('animals-mock stopped\n')).toBe(true)
  const bare = await runCli(['serve', '--port', '0', '--'])
  expect(bare.code).toBe(2)
  expect(bare.stderr).toBe('animals-mock: -- must be followed by a command to run, e.g. -- npm test\n')
  // What follows the first -- is the command's, even an option of serve and another --.
  const passed = await runCli(['serve', '--port', '0', '--quiet', ...node("console.log('args: ' + process.argv.slice(1).join(' '))"), '--', '--port', '9'])
  expect(passed.code).toBe(0)
  expect(passed.stdout).toContain('args: --port 9\n')
})

it('proxy: exits 0 when the command passes and the target keeps the spec, writing the report', async () => {
  const report = join(mkdtempSync(join(tmpdir(), 'wrapped-proxy-')), 'proxy.json')
  const run = await runCli(['proxy', '--target', await target(), '--port', '0', '--quiet', '--fail-on-violation', '--report', report, ...creates(0)])
  expect(run.code, run.stdout + run.stderr).toBe(0)
  expect(run.stdout).toContain('command created: 201')
  expect(run.stdout).toContain('animals-mock stopped: 1 exchanges, 0 violations of the spec')
  expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ exchanges: 1, violations: 0, passed: true })
})

it('proxy: exits 1 for a violation under --fail-on-violation when the command passes, and 0 without it; the report says why', async () => {
  const drifted = await target('createPet answers 200')
  const report = join(mkdtempSync(join(tmpdir(), 'wrapped-proxy-')), 'proxy.json')
  const failing = await runCli(['proxy', '--target', drifted, '--port', '0', '--quiet', '--fail-on-violation', '--report', report, ...creates(0)])
  expect(failing.code, failing.stdout + failing.stderr).toBe(1)
  expect(failing.stdout).toMatch(/^VIOLATION POST \/v1\/pets 200 status: /m)
  expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ exchanges: 1, violations: 1, passed: false })
  const lenient = await runCli(['proxy', '--target', drifted, '--port', '0', '--quiet', ...creates(0)])
  expect(lenient.code).toBe(0)
})

it('proxy: exits with the command\'s failure before a violation, and still writes the report', async () => {
  const report = join(mkdtempSync(join(tmpdir(), 'wrapped-proxy-')), 'proxy.xml')
  const run = await runCli(['proxy', '--target', await target('createPet answers 200'), '--port', '0', '--quiet', '--fail-on-violation', '--report', report, ...creates(4)])
  expect(run.code).toBe(4)
  expect(readFileSync(report, 'utf8')).toContain('<failure message="')
})

it('proxy: passes SIGTERM on to the command and writes the report before it exits', async () => {
  const report = join(mkdtempSync(join(tmpdir(), 'wrapped-proxy-')), 'proxy.json')
  const cli = spawnCli(['proxy', '--target', await target(), '--port', '0', '--quiet', '--report', report, ...waits])
  running.push(cli)
  await until(cli, 'command ready at http://')
  expect(cli.stdout()).toContain(`command ready at ${bannerUrl(cli.stdout())}`)
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(7)
  expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ exchanges: 0, passed: true })
})

it('serve: a second SIGTERM kills a command that ignores the first, which exits 137 (128 + SIGKILL)', async () => {
  const stubborn = node(`
    process.on('SIGTERM', () => console.log('command ignores SIGTERM'))
    console.log('command ready at ' + process.env.ANIMALS_MOCK_URL)
    setInterval(() => {}, 1000)`)
  const cli = spawnCli(['serve', '--port', '0', '--quiet', ...stubborn])
  running.push(cli)
  await until(cli, 'command ready at http://')
  cli.child.kill('SIGTERM')
  await until(cli, 'command ignores SIGTERM')
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(137)
  expect(cli.stdout().endsWith('animals-mock stopped\n')).toBe(true)
})

it('serve: a command that exists but cannot be run is one line and 126, as a shell says', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'wrapped-noexec-')), 'not-executable.sh')
  writeFileSync(file, 'echo never\n', { mode: 0o644 })
  const run = await runCli(['serve', '--port', '0', '--quiet', '--', file])
  expect(run.code).toBe(126)
  expect(run.stderr).toBe(`animals-mock: cannot run ${file}: spawn ${file} EACCES\n`)
  expect(run.stdout.endsWith('animals-mock stopped\n')).toBe(true)
})

it('takes back its SIGINT and SIGTERM listeners once the command has ended, however it ended', async () => {
  const listeners = (): number[] => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]
  const before = listeners()
  const commands = [{ file: process.execPath, args: ['-e', 'process.exit(3)'] }, { file: 'no-such-command-8d2f', args: [] }]
  const codes: number[] = []
  for (const command of commands) {
    const ending = runCommand(command, process.env)
    expect(listeners()).toEqual([before[0]! + 1, before[1]! + 1])
    codes.push(await ending)
    expect(listeners()).toEqual(before)
  }
  expect(codes).toEqual([3, 127])
})

/** Whether a process still runs: not gone, and not a zombie waiting for its parent to reap it. */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === false
  } catch {
    return false
  }
}

/**
 * The pid the grandchild wrote: the file exists, empty, between its creation and the write, so
 * this waits for the whole number (reading too early gave pid 0 under CI's load).
 */
async function pidIn(file: string): Promise<number> {
  const written = (): string => (existsSync(file) ? readFileSync(file, 'utf8') : '')
  for (let i = 0; i < 2000 && !/^\d+$/.test(written()); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  return Number(written())
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  return !alive(pid)
}

/**
 * `sh -c '<grandchild> && true'`, as docs/cli.md recommends for two steps: the shell waits for a
 * node process it started (the grandchild), which writes its pid and then runs until stopped.
 */
function shellWithGrandchild(dir: string, connector = '&& true'): { readonly args: string[]; readonly pidFile: string } {
  const pidFile = join(dir, 'grandchild.pid')
  const script = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`
  return { args: ['--', 'sh', '-c', `'${process.execPath}' -e "${script.replaceAll('"', '\\"')}" ${connector}`], pidFile }
}

for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
  it(`serve: on ${signal}, stops the command and what it started, and writes the state file and the pact`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wrapped-group-'))
    const { args, pidFile } = shellWithGrandchild(dir)
    const cli = spawnCli(['serve', '--port', '0', '--quiet', '--state-file', join(dir, 'state.json'), '--record-pact', join(dir, 'pacts'), '--consumer', 'group-app', ...args])
    running.push(cli)
    const grandchild = await pidIn(pidFile)
    expect(alive(grandchild)).toBe(true)
    cli.child.kill(signal)
    // A hang-up is taken as SIGTERM: the shell ends by it either way.
    expect(await cli.exited).toBe(143)
    expect(await gone(grandchild)).toBe(true)
    expect(existsSync(join(dir, 'state.json'))).toBe(true)
    expect(existsSync(join(dir, 'pacts', 'group-app-animals-service.json'))).toBe(true)
    expect(cli.stdout().endsWith('animals-mock stopped\n')).toBe(true)
  })
}

it('serve: stops what the command left running when the command itself ends, and exits with its code', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wrapped-leftover-'))
  const { args, pidFile } = shellWithGrandchild(dir, `& until [ -s '${join(dir, 'grandchild.pid')}' ]; do sleep 0.01; done; exit 5`)
  const run = await runCli(['serve', '--port', '0', '--quiet', ...args])
  expect(run.code).toBe(5)
  expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true)
})

it('proxy: on SIGTERM, stops the command and what it started, and writes the report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wrapped-group-'))
  const { args, pidFile } = shellWithGrandchild(dir)
  const cli = spawnCli(['proxy', '--target', await target(), '--port', '0', '--quiet', '--report', join(dir, 'proxy.json'), ...args])
  running.push(cli)
  const grandchild = await pidIn(pidFile)
  cli.child.kill('SIGTERM')
  expect(await cli.exited).toBe(143)
  expect(await gone(grandchild)).toBe(true)
  expect(JSON.parse(readFileSync(join(dir, 'proxy.json'), 'utf8'))).toMatchObject({ exchanges: 0, passed: true })
})

it('serve without a command stops gracefully on SIGHUP, as on SIGTERM: the state file is written', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'wrapped-hup-')), 'state.json')
  const cli = spawnCli(['serve', '--port', '0', '--state-file', file])
  running.push(cli)
  await until(cli, 'animals-mock listening on')
  cli.child.kill('SIGHUP')
  expect(await cli.exited).toBe(0)
  expect(cli.stdout().endsWith('animals-mock stopped\n')).toBe(true)
  expect(existsSync(file)).toBe(true)
})

it('serve on a terminal: the command stays in the terminal\'s foreground group, so that it can read the keyboard', async () => {
  const cli = spawnCli(['serve', '--port', '0', '--quiet', '--', 'sh', '-c', 'echo "groups: $(ps -o pgid=,tpgid= -p $$)"'], {}, { terminal: true })
  running.push(cli)
  expect(await cli.exited).toBe(0)
  const [pgid, foreground] = /groups: +(\d+) +(\d+)/.exec(cli.stdout())?.slice(1) ?? []
  expect(pgid).toBeDefined()
  expect(pgid).toBe(foreground)
})

it(`serve: kills what the command left running when it ignores SIGTERM for ${LEFTOVER_GRACE_MS / 1000} s`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wrapped-stubborn-'))
  const pidFile = join(dir, 'grandchild.pid')
  const script = `process.on('SIGTERM', () => {}); require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`
  const started = Date.now()
  const run = await runCli(['serve', '--port', '0', '--quiet', '--', 'sh', '-c', `'${process.execPath}' -e "${script.replaceAll('"', '\\"')}" & until [ -s '${pidFile}' ]; do sleep 0.01; done`])
  expect(run.code).toBe(0)
  expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true)
  expect(Date.now() - started).toBeGreaterThanOrEqual(LEFTOVER_GRACE_MS)
})

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Handler } from '../../src/service/http.js'
import { BROKEN_FAKES } from './broken-fakes.js'
import { type CliProcess, spawnCli, waitForBaseUrl } from './cli.js'

/** A key no one would type by chance: the leak checks search every output for it. */
export const STAGING_KEY = 'LEAKCHECK-staging-4b7e19'

/** The staging stand-in: the fake as a process of its own, accepting `STAGING_KEY` only, reached at its `/v1` base. */
export type StagingStandIn = { readonly baseUrl: string; readonly cli: CliProcess; stop(): Promise<void> }

/** Starts `animals-mock serve --port 0 --api-key STAGING_KEY` and waits for its base URL. */
export async function startStagingStandIn(): Promise<StagingStandIn> {
  const cli = spawnCli(['serve', '--port', '0', '--api-key', STAGING_KEY])
  const baseUrl = await waitForBaseUrl(cli)
  return {
    baseUrl,
    cli,
    async stop() {
      cli.child.kill('SIGTERM')
      await cli.exited
    },
  }
}

/** The wrapper of the broken fake that breaks `rule`, for servers that drift from the spec in one way. */
export function driftOf(rule: string): (site: Handler) => Handler {
  const broken = BROKEN_FAKES.find((each) => each.rule === rule)
  if (broken === undefined) throw new Error(`no broken fake "${rule}"`)
  return broken.wrap
}

/** A loopback port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** A temporary directory for reports, and the text of what was written there. */
export type ReportDir = { path(name: string): string; read(name: string): string; remove(): void }

/** Creates a temporary directory for report files. */
export function createReportDir(): ReportDir {
  const dir = mkdtempSync(join(tmpdir(), 'animals-reports-'))
  return {
    path: (name) => join(dir, name),
    read: (name) => readFileSync(join(dir, name), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

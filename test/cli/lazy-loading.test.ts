import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { spawnCli, waitForBaseUrl } from '../support/cli.js'

// Loaded before the program: on exit, says whether any module of Pact is in the CommonJS cache,
// where Node keeps every CommonJS package an ES module imported.
const PROBE = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module'
const cache = createRequire(process.execPath).cache
process.on('exit', () => {
  const pact = Object.keys(cache).some((path) => path.includes('@pact-foundation'))
  process.stderr.write(pact ? 'PACT LOADED\\n' : 'PACT NOT LOADED\\n')
})
`)}`

it('serves without loading Pact, which only verify pays for', async () => {
  const serve = spawnCli(['serve', '--port', '0'], { NODE_OPTIONS: `--import=${PROBE}` })
  await waitForBaseUrl(serve)
  serve.child.kill('SIGTERM')
  expect(await serve.exited).toBe(0)
  expect(serve.stderr()).toContain('PACT NOT LOADED')

  // The probe sees Pact when it is loaded: the module verify's worker imports.
  const verifier = fileURLToPath(new URL('../../dist/verify/provider.js', import.meta.url))
  const child = spawn(process.execPath, [`--import=${PROBE}`, verifier], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  await new Promise((resolve) => child.on('close', resolve))
  expect(stderr).toContain('PACT LOADED')
})

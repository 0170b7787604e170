/**
 * `npm run test:node24`: the whole suite again on Node 24 (a binary from the npm registry), with
 * msw 3 in place of msw 2 (vitest.config.ts aliases msw to the msw3 package). The users' setup:
 * Node 24, msw 3.
 */
import { spawnSync } from 'node:child_process'
import { installNode24, ROOT } from './packing.js'

const node = installNode24()
const result = spawnSync(node, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, ANIMALS_MOCK_MSW: '3' },
})
process.exitCode = result.status ?? 1

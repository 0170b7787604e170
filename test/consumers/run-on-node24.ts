/**
 * `npm run test:node24`: the whole suite again on Node 24 (a binary from the npm registry), with
 * msw 3 in place of msw 2 (vitest.config.ts aliases msw to the msw3 package). The users' setup:
 * Node 24, msw 3. All but `test/replicas`: replicas of `serve --store` around Debian's
 * redis-server and nginx, started and stopped, killed and frozen, about 45 s of the run. What they
 * prove is about Redis and nginx, not the Node that runs them, and Node 24 still runs the Redis
 * adapter's own tests (`test/redis`) and every test of the server; CI's 30 minutes are better
 * spent elsewhere (`.ci/run` took 28 to 29 minutes with them).
 */
import { spawnSync } from 'node:child_process'
import { installNode24, ROOT } from './packing.js'

const node = installNode24()
const result = spawnSync(node, ['node_modules/vitest/vitest.mjs', 'run', '--exclude', 'test/replicas/**', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, ANIMALS_MOCK_MSW: '3' },
})
process.exitCode = result.status ?? 1

import { expect, vi } from 'vitest'

// A setup file of vitest.mutate.config.ts: the test timeout each test file gets under a mutant.
// A mutant that makes a request hang is killed by that timeout, so the timeout is most of what
// such a mutant costs: at 300 s, seven mutants of exchange.ts's in-flight accounting took 35 of
// a run's first 33 minutes on two runners. 90 s is over four times the longest test file of a
// plain run (20 s). The files listed keep the config's 300 s, because a wait in them is long by
// design: a restart from 400,000 animals is given 180 s under Stryker (test/support/cli.ts).
const LONG_RUNNING_FILES = ['test/cli/durability.test.ts']
const TEST_TIMEOUT_MS = 90_000

// testPath is the test file this setup file runs for; vitest restores the config after each file.
const testPath = expect.getState().testPath ?? ''
if (!LONG_RUNNING_FILES.some((file) => testPath.endsWith(file))) vi.setConfig({ testTimeout: TEST_TIMEOUT_MS })

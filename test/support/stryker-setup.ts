import { afterAll, beforeAll, beforeEach } from 'vitest'
import { collectChildren, creditLivingChildren, creditSetupCoverage, startSetupCoverage } from './stryker-bridge.js'

// A setup file of vitest.mutate.config.ts only: it runs for every test file, whether or not
// modules are shared between files, after Stryker's own setup has named the current test.
// Its beforeAll runs before the test file's own (hooks run in the order they were registered),
// and its beforeEach after Stryker's has named the test. Its afterAll runs before Stryker's
// (vitest runs after-hooks in reverse order), so what spawned servers reached is counted before
// Stryker takes the file's coverage.
beforeAll(startSetupCoverage)
beforeEach(creditSetupCoverage)
beforeEach(creditLivingChildren)
afterAll(collectChildren)

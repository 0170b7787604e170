import { afterAll, beforeEach } from 'vitest'
import { collectChildren, creditLivingChildren } from './stryker-bridge.js'

// A setup file of vitest.mutate.config.ts only: it runs for every test file, whether or not
// modules are shared between files, after Stryker's own setup has named the current test. Its
// afterAll runs before Stryker's (vitest runs after-hooks in reverse order), so what spawned
// servers reached is counted before Stryker takes the file's coverage.
beforeEach(creditLivingChildren)
afterAll(collectChildren)

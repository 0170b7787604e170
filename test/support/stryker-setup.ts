import { beforeEach } from 'vitest'
import { creditLivingChildren } from './stryker-bridge.js'

// A setup file of vitest.mutate.config.ts only: it runs for every test file, whether or not
// modules are shared between files, after Stryker's own setup has named the current test.
beforeEach(creditLivingChildren)

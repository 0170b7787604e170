import { isolationTests } from '../isolation.js'
import { test } from './fixtures.js'

isolationTests(test, 'isolate')

import { isolationTests } from '../isolation.js'
import { expect, test } from './fixtures.js'

isolationTests(test, 'msw')

// Each test's own fake holds the 30 default animals and, after adding, its one animal more.
test.afterEach(({ fake }, testInfo) => {
  if (testInfo.title.startsWith('adds ')) expect(fake.store.size).toBe(31)
})

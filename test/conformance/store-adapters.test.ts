import { describe, it } from 'vitest'
import { useRedis } from '../support/redis-harness.js'
import { hasRedis } from '../support/redis-server.js'
import { memoryReplica, redisReplica } from '../support/fake-over.js'
import { STORE_CASES } from './store-cases.js'

const table = STORE_CASES.map((storeCase) => [storeCase.name, storeCase] as const)

describe('the store table, in memory', () => {
  it.each(table)('%s', (_name, storeCase) =>
    storeCase.run({
      async replicas(setup) {
        const replica = memoryReplica(setup)
        return [replica, replica]
      },
      leftovers: async () => 0,
    }),
  )
})

// Two replicas, each its own connection, over a real redis-server: each case on a prefix of its own.
describe.skipIf(!hasRedis)('the store table, over Redis', () => {
  const harness = useRedis()
  let prefixes = 0
  let prefix = ''
  it.each(table)('%s', (_name, storeCase) =>
    storeCase.run({
      async replicas(setup) {
        prefix = `s${++prefixes}:`
        const first = await redisReplica(await harness.connect(), prefix, setup)
        const second = await redisReplica(await harness.connect(), prefix, setup)
        return [first, second]
      },
      leftovers: async () => ((await (await harness.connect()).command(['KEYS', `${prefix}*loading*`])) as string[]).length,
    }),
  )
})

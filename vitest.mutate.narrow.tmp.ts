import base from './vitest.mutate.config.js'
const config = { ...base, test: { ...base.test, include: (process.env.NARROW ?? 'test/redis/**/*.test.ts').split(',') } }
export default config

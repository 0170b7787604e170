/** `animals-mock/node`: the standalone node:http server over the fake, with its documents. */
export { API_BASE, createSite, type SiteOptions } from '../core/site.js'
export { createPages, PAGE_PATHS } from './pages.js'
export { type BodyLimits, ListenError, type RunningServer, type ServerOptions, startServer } from './server.js'
export { FixtureError, loadFixture, resolveFixture } from './fixtures.js'
export { type WrittenPact, writePacts } from './pact-writer.js'

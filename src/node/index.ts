/** `animals-mock/node`: the standalone node:http server over the fake, with its documents. */
export { API_BASE, createSite, type SiteOptions } from '../site/site.js'
export { createPages, PAGE_PATHS } from '../site/pages.js'
export { type BodyLimits, ListenError, type RunningServer, type ServerOptions, startServer } from './server.js'
export { FixtureError, loadFixture, resolveFixture } from '../files/fixtures.js'
export { type WrittenPact, writePacts } from '../files/pact-writer.js'

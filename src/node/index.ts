/** `animals-mock/node`: the standalone node:http server over the fake, with its documents. */
export { API_BASE, createSite, type Page, type SiteOptions } from '../site/site.js'
export type { HostPolicy } from '../site/site-guard.js'
export { createPages, PAGE_PATHS, type PagesOptions } from '../site/pages.js'
export type { Control } from '../fake/control.js'
export { type BodyLimits, ListenError, type RunningServer, type ServerOptions, startServer, type Timeouts } from './server.js'
export type { Exchange } from './exchange.js'
export { FixtureError, loadFixture, resolveFixture } from '../disk/fixtures.js'
export { type WrittenPact, writePacts } from '../disk/pact-writer.js'
export type { KeyPolicy } from '../service/auth.js'
export type { ConstantFields, DroppedConnection, Fields, Handler, PlainRequest, PlainResponse, Reply } from '../service/http.js'
export { type Int64, type NewPet, PET_STATUSES, type Pet, type PetStatus, type Schemas, type WithInt64 } from '../spec/animals-service.js'
/** The contract's own types, as openapi-typescript writes them from contracts/openapi.yaml. */
export type { components, operations, paths } from '../spec/openapi.generated.js'

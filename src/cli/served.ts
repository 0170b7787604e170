import { readControlOpenApiText } from '../contracts/openapi-files.js'
import { type Control, createControl, type PactWritten } from '../fake/control.js'
import type { FakeCore } from '../fake/fake-core.js'
import { FixtureError, loadFixture } from '../disk/fixtures.js'
import type { KeyPolicy } from '../service/auth.js'
import { definedOnly } from '../service/defined-only.js'
import type { Handler } from '../service/http.js'
import type { Pet } from '../spec/animals-service.js'
import { createPages } from '../site/pages.js'
import { createSite, type Page } from '../site/site.js'
import { createHostPolicy } from '../site/site-guard.js'
import { CliError } from './cli-error.js'
import type { ServeConfig } from './serve-options.js'

/**
 * What `runServe` serves, in memory or on a store in Redis: the site, what the banner tells of
 * it, and what is left to do once the server has stopped.
 */
export type Running = {
  readonly site: Handler
  readonly control?: Control
  readonly keys: KeyPolicy
  readonly animals: number
  readonly from: string
  /** Where the animals are kept when not in this process: the store's URL, without a password. */
  readonly store?: string
  /** After the server stopped: the last state file write, the recorded pact, the store's connection. */
  finish(): Promise<void>
}

/** The fixture's animals, within --max-animals; a fixture that cannot be used is one line. */
export async function loadPets(config: ServeConfig): Promise<Pet[]> {
  let pets: Pet[]
  try {
    pets = await loadFixture(config.fixture)
  } catch (error) {
    if (error instanceof FixtureError) throw new CliError(error.message)
    throw error
  }
  if (pets.length > config.maxAnimals) {
    throw new CliError(`--max-animals ${config.maxAnimals} is below the ${pets.length} animals of fixture ${config.fixture}: raise it or pick a smaller fixture`)
  }
  return pets
}

/**
 * The site `serve` answers over a fake, in memory or over Redis: the API, the control API (unless
 * --no-control) with its own document, the pages, behind the Host and Origin guards of `config`.
 */
export function siteOver(core: FakeCore, config: ServeConfig, extras: { readonly writePact?: () => Promise<PactWritten>; readonly health?: Page } = {}): { site: Handler; control?: Control } {
  const control = config.control ? createControl({ core, document: readControlOpenApiText(), ...definedOnly({ writePact: extras.writePact, token: config.controlToken }) }) : undefined
  // The dashboard reads the control API, the same through every replica.
  const pages = createPages({ keys: core.keys, control: control === undefined ? 'off' : config.controlToken === undefined ? 'open' : 'token', ...definedOnly({ health: extras.health }) })
  const site = createSite({ api: core, pages, hosts: createHostPolicy(config.allowedHosts), controlCorsOrigins: config.controlCors, ...definedOnly({ control }) })
  return { site, ...definedOnly({ control }) }
}

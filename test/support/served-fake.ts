import { createSite } from '../../src/site/site.js'
import { createFake, type Fake } from '../../src/create-fake.js'
import { type RunningServer, startServer } from '../../src/node/server.js'
import { TEST_KEY } from './api-client.js'

/** A fake that accepts TEST_KEY, served over HTTP on an ephemeral loopback port (the API, no pages). */
export async function serveFake(): Promise<{ fake: Fake; server: RunningServer }> {
  const fake = createFake({ keys: [TEST_KEY] })
  return { fake, server: await startServer({ app: createSite({ api: fake }) }) }
}

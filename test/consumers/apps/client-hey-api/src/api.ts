// The app's SDK: what @hey-api/openapi-ts generated from the contract, on a client of our own base.
import { createClient, createConfig } from './generated/client/index.js'

export * from './generated/sdk.gen.js'

export function createApi(baseUrl: string, apiKey?: string) {
  return createClient(createConfig({ baseUrl, headers: apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` } }))
}

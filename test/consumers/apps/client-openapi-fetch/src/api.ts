// The app's client: openapi-fetch over the types openapi-typescript generated from the contract.
import createClient from 'openapi-fetch'
import type { paths } from './generated/schema.js'

export function createApi(baseUrl: string, apiKey?: string) {
  return createClient<paths>({
    baseUrl,
    headers: apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` },
    // openapi-fetch keeps the fetch it finds when the client is made; msw's interception, set up
    // later by server.listen() or worker.start(), is only seen through a fetch looked up per call.
    fetch: (request) => globalThis.fetch(request),
  })
}

// A correct deployment may send none of getPet's deprecation headers: the generated type agrees.
export const withoutDeprecationHeaders: paths['/pets/{petId}']['get']['responses'][200]['headers'] = {}

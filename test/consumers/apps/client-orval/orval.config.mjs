// orval reads the contract's server (`/v1`) only when asked: getBaseUrlFromSpecification.
// The mutator joins the app's origin at run time (the fake's, a deployment's, or msw's).
export default {
  animals: {
    input: './node_modules/animals-mock/contracts/openapi.yaml',
    output: {
      target: './src/generated/animals.ts',
      client: 'react-query',
      mode: 'single',
      baseUrl: { getBaseUrlFromSpecification: true },
      override: { mutator: { path: './src/fetcher.ts', name: 'customFetch' } },
    },
  },
}

/**
 * The bearer token the consumer tests send where a valid key belongs, and recorded pacts carry. The
 * verifier swaps it for the real key; the pacts' invalid and missing keys are left as they are. A
 * module of its own: the msw handlers record pacts in the browser, where the verifier's modules
 * (node:path) cannot go.
 */
export const API_KEY_PLACEHOLDER = 'pact-placeholder-api-key'

/** The key no service accepts: what the pacts' invalid-key interactions and parity's probes send. */
export const INVALID_KEY = 'not-a-valid-key'

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Where the contract lives: `contracts/openapi.yaml`, the single source of truth. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../contracts/openapi.yaml', import.meta.url))

/** The contract's text as committed. */
export function readOpenApiText(): string {
  return readFileSync(OPENAPI_FILE, 'utf8')
}

/**
 * The control API's own document, `contracts/control.openapi.yaml`, as text. Its path is worked
 * out at each call, so a test in this process meets a planted change (docs/contributing.md).
 */
export function readControlOpenApiText(): string {
  return readFileSync(fileURLToPath(new URL('../../contracts/control.openapi.yaml', import.meta.url)), 'utf8')
}

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Where the contract lives: `contracts/openapi.yaml`, the single source of truth. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../contracts/openapi.yaml', import.meta.url))

/** The contract's text as committed. */
export function readOpenApiText(): string {
  return readFileSync(OPENAPI_FILE, 'utf8')
}

/** Where the control API's own document lives: `contracts/control.openapi.yaml`. */
export const CONTROL_OPENAPI_FILE = fileURLToPath(new URL('../../contracts/control.openapi.yaml', import.meta.url))

/** The control API's own document as text. */
export function readControlOpenApiText(): string {
  return readFileSync(CONTROL_OPENAPI_FILE, 'utf8')
}

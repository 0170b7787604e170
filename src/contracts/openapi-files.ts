import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '#package-root'

/** Where the contract lives: `contracts/openapi.yaml`, the single source of truth. */
export const OPENAPI_FILE = join(PACKAGE_ROOT, 'contracts/openapi.yaml')

/** The contract's text as committed. */
export function readOpenApiText(): string {
  return readFileSync(OPENAPI_FILE, 'utf8')
}

/** Where the control API's own document lives: `contracts/control.openapi.yaml`. */
export const CONTROL_OPENAPI_FILE = join(PACKAGE_ROOT, 'contracts/control.openapi.yaml')

/** The control API's own document as text. */
export function readControlOpenApiText(): string {
  return readFileSync(CONTROL_OPENAPI_FILE, 'utf8')
}

import { fileURLToPath } from 'node:url'

/**
 * This package's folder, where it keeps what it ships beside its code: the contract documents,
 * the fixtures, the dashboard's modules. Imported as `#package-root` (package.json `imports`),
 * which gives a `require` the CommonJS twin, `package-root.cts`: a test runner that compiles
 * these modules to CommonJS (Jest on Node 20) has no `import.meta`. The same folder from
 * `dist/contracts/` and, under vitest, from `src/contracts/`.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url))

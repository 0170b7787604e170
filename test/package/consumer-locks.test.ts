import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = new URL('../../', import.meta.url)
const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as Record<string, unknown>
const apps = fileURLToPath(new URL('test/consumers/apps/', ROOT))

// The consumer apps install animals-mock from their locks: what the lock says of it must be what
// it is, or `npm ci` there would install yesterday's dependencies.
it('records the package\'s current dependencies and peers in every consumer app\'s lock (else: npm run consumers:lock)', () => {
  for (const app of readdirSync(apps)) {
    const lock = JSON.parse(readFileSync(`${apps}${app}/package-lock.json`, 'utf8')) as { packages: Record<string, Record<string, unknown>> }
    const entry = lock.packages['node_modules/animals-mock'] ?? {}
    for (const field of ['dependencies', 'peerDependencies', 'peerDependenciesMeta', 'engines', 'bin'] as const) {
      expect(entry[field], `${app}: ${field}`).toEqual(manifest[field])
    }
  }
})

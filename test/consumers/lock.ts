/**
 * `npm run consumers:lock`: writes each consumer app's package-lock.json from its package.json and
 * the package as it is packed now. Run it after changing the package's dependencies or an app's;
 * `npm run consumers:lock -- <app> ...` locks only those apps, leaving the others' pins as they are.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { APPS, appNames, npm, packInto } from './packing.js'

const tarball = packInto(APPS)
try {
  const named = process.argv.slice(2)
  for (const app of named.length > 0 ? named : [...appNames(), '../node24']) {
    const dir = join(APPS, app)
    rmSync(join(dir, 'package-lock.json'), { force: true })
    npm(['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], dir)
    console.log(`locked ${app}`)
  }
} finally {
  rmSync(tarball, { force: true })
}

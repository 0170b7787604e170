import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const CORE = fileURLToPath(new URL('../../src/core/', import.meta.url))
// The core is plain data in, plain data out: it runs unchanged in Node, msw and browsers.
const ALLOWED_PACKAGES = new Set(['lossless-json'])
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm

it('keeps the core free of transports, I/O, faker and msw', () => {
  const files = readdirSync(CORE).filter((file) => file.endsWith('.ts'))
  expect(files.length).toBeGreaterThan(5)
  for (const file of files) {
    const source = readFileSync(`${CORE}${file}`, 'utf8')
    for (const [, specifier = ''] of source.matchAll(IMPORT)) {
      const allowed = specifier.startsWith('./') || ALLOWED_PACKAGES.has(specifier)
      expect(allowed, `${file} imports ${specifier}`).toBe(true)
    }
    expect(source, `${file} reads the clock or randomness`).not.toMatch(/Date\.now\(|Math\.random\(|new Date\(\)|performance\.now/)
  }
})

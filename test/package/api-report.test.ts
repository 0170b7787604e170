import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { ENTRY_POINTS, runApiReports } from './api-report.js'

const API = fileURLToPath(new URL('../../api/', import.meta.url))

it('keeps api/*.api.md equal to what each entry point offers, with every type it mentions exported', () => {
  const reports = runApiReports(false)
  expect(reports.map(({ entry }) => entry)).toEqual(Object.keys(ENTRY_POINTS))
  // A changed report means the surface changed: run `npm run api` and review the diff of api/.
  expect(reports.filter(({ changed, problems }) => changed || problems.length > 0)).toEqual([])
}, 120_000)

/** Each declaration of a report by the name it exports, as API Extractor writes them: blocks after `// @public`, up to the report's closing notes. */
function declarationsOf(report: string): Map<string, string> {
  const declarations = new Map<string, string>()
  for (const block of report.split('// @public').slice(1)) {
    const name = /export (?:declare )?(?:abstract )?(?:const|type|function|class|interface|enum) (\w+)/.exec(block)?.[1]
    if (name !== undefined) declarations.set(name, (declarations.get(name) ?? '') + block.replace(/\s+(?:\/\/ \(|```)[\s\S]*$/, '').trim())
  }
  return declarations
}

it('means one thing by each exported name across every entry point', () => {
  const meanings = new Map<string, Map<string, string[]>>()
  for (const file of readdirSync(API).filter((name) => name.endsWith('.api.md'))) {
    for (const [name, declaration] of declarationsOf(readFileSync(API + file, 'utf8'))) {
      const byDeclaration = meanings.get(name) ?? new Map<string, string[]>()
      byDeclaration.set(declaration, [...(byDeclaration.get(declaration) ?? []), file])
      meanings.set(name, byDeclaration)
    }
  }
  expect(meanings.get('Pet')?.size).toBe(1)
  expect(meanings.get('Pet')?.values().next().value).toHaveLength(5)
  const twoMeanings = [...meanings].filter(([, byDeclaration]) => byDeclaration.size > 1).map(([name, byDeclaration]) => ({ name, files: [...byDeclaration.values()] }))
  expect(twoMeanings).toEqual([])
})

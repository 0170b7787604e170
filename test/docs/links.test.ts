import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]

/** The text outside fenced code blocks, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '')
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading = ''] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** Every relative link and image of a document: [text](target), ![alt](target). */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target))
}

it.each(DOCUMENTS)('%s: every relative link and #anchor resolves', (document) => {
  const text = readFileSync(join(ROOT, document), 'utf8')
  const broken: string[] = []
  for (const target of linksOf(text)) {
    const [path = '', anchor] = target.split('#')
    const file = path === '' ? join(ROOT, document) : join(ROOT, dirname(document), path)
    if (!existsSync(file)) {
      broken.push(`${target}: no such file`)
      continue
    }
    if (anchor !== undefined && !(statSync(file).isFile() && anchorsOf(readFileSync(file, 'utf8')).has(anchor))) {
      broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, file)}`)
    }
  }
  expect(broken).toEqual([])
})

it('finds broken links: a missing file and a missing anchor are reported', () => {
  expect(linksOf('[a](docs/none.md) [b](#nowhere) [c](https://example.com) ![d](x.png)')).toEqual(['docs/none.md', '#nowhere', 'x.png'])
  expect(anchorsOf('# The `animals-mock verify` command\n## For CI: verify (a deployment)\n## Twice\n## Twice')).toEqual(
    new Set(['the-animals-mock-verify-command', 'for-ci-verify-a-deployment', 'twice', 'twice-1']),
  )
})

it('keeps the README short enough to read in ten minutes: at most 25 KB, set-up first, with contents', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(25_000)
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1])
  expect(headings.slice(0, 2)).toEqual(['Contents', 'Set-up: two commands'])
  expect(readme).toContain('npm ci && npm start')
  expect(readme).toContain('npm ci && npm test')
})

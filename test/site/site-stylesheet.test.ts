import { afterAll, expect, it } from 'vitest'
import { createSite } from '../../src/site/site.js'
import { createFake } from '../../src/fake.js'
import { createPages } from '../../src/site/pages.js'
import { type RunningServer, startServer } from '../../src/node/server.js'

const servers: RunningServer[] = []
afterAll(() => Promise.all(servers.map((server) => server.close())))

const classesOf = (html: string): Set<string> => new Set([...html.matchAll(/ class="([^"]*)"/g)].flatMap((match) => (match[1] ?? '').split(' ')))

// pages-served.test.ts compares the stylesheet with the text it is served from; this reads it
// as a browser does, for the rules that lay out the pages that link it.
it('serves a stylesheet with rules for the header, main area and panels of the landing page and the dashboard', async () => {
  const server = await startServer({ app: createSite({ api: createFake(), pages: createPages({ control: 'open' }) }) })
  servers.push(server)
  const css = await (await fetch(`${server.url}/assets/site.css`)).text()
  expect(css).toMatch(/:root \{ color-scheme: light;/)
  const pages = [
    ['/', 'narrow', 'main.narrow {'],
    ['/dashboard', 'grid', 'main.grid {'],
  ] as const
  for (const [path, main, mainRule] of pages) {
    const classes = classesOf(await (await fetch(`${server.url}${path}`)).text())
    for (const [name, rule] of [['top', 'header.top {'], ['panel', '.panel {'], [main, mainRule]] as const) {
      expect(classes, `${path} uses ${name}`).toContain(name)
      expect(css, rule).toContain(rule)
    }
  }
})

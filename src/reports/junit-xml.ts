/** A test case of a JUnit report: passed when it has no failure. */
export type JUnitCase = {
  readonly name: string
  readonly classname: string
  /** Every case has a time: CI servers sort and total by it. */
  readonly timeSeconds: number
  readonly failure?: { readonly message: string; readonly type: string; readonly details: string }
  /** Shown by CI servers beside the case, e.g. a warning that does not fail it. */
  readonly systemOut?: string
}

/** A suite of test cases, e.g. the interactions of one consumer's pact. */
export type JUnitSuite = { readonly name: string; readonly cases: readonly JUnitCase[] }

/**
 * A JUnit XML document (the format CI servers read: `testsuites` > `testsuite` > `testcase`, with
 * `failure` elements), every text escaped.
 */
export function toJUnitXml(name: string, suites: readonly JUnitSuite[]): string {
  const count = (cases: readonly JUnitCase[]): string =>
    `tests="${cases.length}" failures="${cases.filter((each) => each.failure !== undefined).length}" errors="0"`
  const all = suites.flatMap((suite) => suite.cases)
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${escapeXml(name)}" ${count(all)}>`]
  for (const suite of suites) {
    const time = suite.cases.reduce((total, each) => total + each.timeSeconds, 0)
    lines.push(`  <testsuite name="${escapeXml(suite.name)}" ${count(suite.cases)} time="${time.toFixed(3)}">`)
    for (const each of suite.cases) {
      const attributes =
        `name="${escapeXml(each.name)}" classname="${escapeXml(each.classname)}" time="${each.timeSeconds.toFixed(3)}"`
      if (each.failure === undefined && each.systemOut === undefined) {
        lines.push(`    <testcase ${attributes}/>`)
        continue
      }
      lines.push(`    <testcase ${attributes}>`)
      if (each.failure !== undefined) {
        const { message, type, details } = each.failure
        lines.push(`      <failure message="${escapeXml(message)}" type="${escapeXml(type)}">${escapeXml(details)}</failure>`)
      }
      if (each.systemOut !== undefined) lines.push(`      <system-out>${escapeXml(each.systemOut)}</system-out>`)
      lines.push('    </testcase>')
    }
    lines.push('  </testsuite>')
  }
  lines.push('</testsuites>', '')
  return lines.join('\n')
}

/**
 * Text made safe for XML content and attribute values: the five special characters as entities,
 * and characters XML 1.0 cannot hold at all (most control characters) as U+FFFD.
 * @example escapeXml('a < "b"') // 'a &lt; &quot;b&quot;'
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<>"']/g, entityOf)
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

function entityOf(character: string): string {
  return ENTITIES[character] ?? character
}

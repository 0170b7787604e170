import { expect, it } from 'vitest'
import type { DeprecationWarning } from '../../src/verify/deprecation-warnings.js'
import { escapeXml, toJUnitXml } from '../../src/reports/junit-xml.js'
import { formatVerificationText, toVerificationJson, toVerificationJUnit } from '../../src/verify/report.js'
import type { InteractionOutcome } from '../../src/verify/results.js'
import type { VerificationReport } from '../../src/verify/provider.js'

const REPORT: VerificationReport = {
  passed: false,
  checked: ['a request to add an animal', 'a request to <get> "one" & more'],
  failed: ['a request to <get> "one" & more'],
  interactions: [
    { consumer: 'web', description: 'a request to add an animal', providerStates: [], passed: true, durationMs: 30, mismatches: [] },
    {
      consumer: 'web',
      description: 'a request to <get> "one" & more',
      providerStates: ['an animal exists'],
      passed: false,
      durationMs: 1500,
      mismatches: [
        { kind: 'status', message: 'expected 200 but was 404', expected: '200', actual: '404' },
        { kind: 'header', key: 'Sunset', message: "Expected a header 'Sunset' but was missing", expected: '"Thu, 05 Dec 2030 00:00:00 GMT"', actual: '' },
        { kind: 'body', key: '$', message: `Expected ${'x'.repeat(400)} (size 10) to have minimum size of 20\u0001` },
      ],
    },
  ],
  problems: [],
  stateErrors: [],
  output: '',
}

it('prints one line per interaction and, under a failure, each mismatch with expected and actual', () => {
  const text = formatVerificationText(REPORT)
  const lines = text.split('\n')
  expect(lines[0]).toBe('PASS  a request to add an animal')
  expect(lines[1]).toBe('FAIL  a request to <get> "one" & more [given an animal exists]')
  // The project's own line first: what the deployment answered against what the pact expects.
  expect(lines[2]).toBe('      → the deployment answered 404 where the pact expects 200')
  expect(lines[3]).toBe('        status: expected 200 but was 404')
  expect(lines.slice(4, 7)).toEqual([
    "        header Sunset: Expected a header 'Sunset' but was missing",
    '          expected: "Thu, 05 Dec 2030 00:00:00 GMT"',
    '          actual:   (none)',
  ])
  // A long message keeps its end, where Pact says what was wrong.
  expect(lines[7]).toMatch(/^ {8}body \$: Expected x+ … x+ \(size 10\) to have minimum size of 20.$/)
  expect(text.endsWith('2 interactions: 1 passed, 1 failed\n')).toBe(true)
})

it('escapes the five XML characters and replaces what XML 1.0 cannot hold', () => {
  expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;')
  expect(escapeXml('bell\u0007 tab\t nl\n emoji 🐶')).toBe('bell\uFFFD tab\t nl\n emoji 🐶')
})

it('writes JUnit XML with a test case per interaction and a failure holding every mismatch', () => {
  const xml = toVerificationJUnit(REPORT)
  expect(xml).toContain('<testsuites name="animals-mock verify" tests="2" failures="1" errors="0">')
  expect(xml).toContain('<testsuite name="web - animals-service" tests="2" failures="1" errors="0" time="1.530">')
  expect(xml).toContain('<testcase name="a request to add an animal" classname="web.animals-service" time="0.030"/>')
  expect(xml).toContain(
    '<testcase name="a request to &lt;get&gt; &quot;one&quot; &amp; more" classname="web.animals-service" time="1.500">',
  )
  expect(xml).toContain(
    '<failure message="the deployment answered 404 where the pact expects 200" type="status mismatch">the deployment answered 404 where the pact expects 200\nstatus: expected 200 but was 404\nheader Sunset:',
  )
  // Nothing unescaped can open a tag inside the document's text.
  const texts = xml.replace('<?xml version="1.0" encoding="UTF-8"?>', '').replace(/<\/?[a-z]+(?: [a-z]+="[^"<>]*")*\/?>/g, '')
  expect(texts).not.toMatch(/[<>]/)
  expect(xml).not.toContain('\u0001')
})

it('writes a JSON report with the run, a summary and every interaction', () => {
  const json = toVerificationJson(REPORT, { baseUrl: 'https://staging.example/v1', marker: '[animals-mock verify 1]', pacts: 'p.json' })
  expect(json).toMatchObject({
    command: 'verify',
    baseUrl: 'https://staging.example/v1',
    marker: '[animals-mock verify 1]',
    passed: false,
    summary: { interactions: 2, passed: 1, failed: 1 },
    interactions: [
      { consumer: 'web', description: 'a request to add an animal', result: 'passed', mismatches: [] },
      { description: 'a request to <get> "one" & more', providerStates: ['an animal exists'], result: 'failed', durationMs: 1500 },
    ],
  })
})

const outcome = (fields: Partial<InteractionOutcome> & { description: string }): InteractionOutcome => ({ providerStates: [], passed: true, mismatches: [], ...fields })
const reportOf = (interactions: InteractionOutcome[], fields: Partial<VerificationReport> = {}): VerificationReport => ({
  passed: interactions.every((each) => each.passed),
  checked: interactions.map((each) => each.description),
  failed: interactions.filter((each) => !each.passed).map((each) => each.description),
  interactions,
  problems: [],
  stateErrors: [],
  output: '',
  ...fields,
})
const warning = (description: string, consumer?: string): DeprecationWarning => ({ ...(consumer === undefined ? {} : { consumer }), description, message: `"${description}" calls GET /pets/{petId}` })

it('names the consumer before each interaction and warning only when the pacts are of several consumers', () => {
  const several = reportOf([
    outcome({ consumer: 'web', description: 'a', providerStates: ['an animal exists', 'animals exist'] }),
    outcome({ consumer: 'mobile', description: 'a' }),
    outcome({ description: 'b' }),
  ])
  expect(formatVerificationText(several, [warning('a', 'mobile'), warning('b')])).toBe(
    [
      'PASS  web › a [given an animal exists and animals exist]',
      'PASS  mobile › a',
      'PASS  b',
      'WARN  mobile › "a" calls GET /pets/{petId}',
      'WARN  "b" calls GET /pets/{petId}',
      '',
      '3 interactions: 3 passed, 0 failed',
      '',
    ].join('\n'),
  )
  expect(formatVerificationText(reportOf([outcome({ consumer: 'web', description: 'a' })]), [warning('a', 'web')])).toBe(
    'PASS  a\nWARN  "a" calls GET /pets/{petId}\n\n1 interactions: 1 passed, 0 failed\n',
  )
})

it('prints a status, state or error mismatch as its message alone, and a failure without details as such', () => {
  const report = reportOf([
    outcome({
      description: 'a',
      passed: false,
      mismatches: [
        { kind: 'state', message: 'provider state "an animal exists" could not be set up: 401 unauthorized', expected: 'x', actual: 'y' },
        { kind: 'error', message: 'no answer from https://s.example/v1/pets', expected: 'x', actual: 'y' },
        { kind: 'status', message: 'expected 201 but was 200', expected: '201', actual: '200' },
        { kind: 'query', key: 'limit', message: 'Expected\n  "3"\n  but was "4"', expected: '"3"' },
        { kind: 'body', message: 'differs', actual: '[]' },
      ],
    }),
    outcome({ description: 'b', passed: false }),
  ])
  expect(formatVerificationText(report).split('\n')).toEqual([
    'FAIL  a',
    '      → the deployment answered 200 where the pact expects 201 (spec 4.2: "201 | Pet (includes the assigned `id`) | Animal added")',
    '        state: provider state "an animal exists" could not be set up: 401 unauthorized',
    '        error: no answer from https://s.example/v1/pets',
    '        status: expected 201 but was 200',
    '        query limit: Expected "3" but was "4"',
    '          expected: "3"',
    '        body: differs',
    '          actual:   []',
    'FAIL  b',
    '        failed, without details from the verifier',
    '',
    '2 interactions: 0 passed, 2 failed',
    '',
  ])
})

it('shows a value of up to 300 characters whole, and a longer one by its start and its end', () => {
  const line = (message: string) => formatVerificationText(reportOf([outcome({ description: 'a', passed: false, mismatches: [{ kind: 'body', message }] })])).split('\n')[2]
  const exactly = `${'a'.repeat(150)}${'b'.repeat(150)}`
  expect(line(exactly)).toBe(`        body: ${exactly}`)
  expect(line(`  ${exactly}\n`)).toBe(`        body: ${exactly}`)
  expect(line(`${exactly}c`)).toBe(`        body: ${'a'.repeat(150)} … ${'b'.repeat(149)}c`)
  expect(line('\u001b[31mred\u001b[0m')).toBe('        body: red')
})

it('lists the problems outside the interactions, one line each, and counts them', () => {
  const one = formatVerificationText(reportOf([outcome({ description: 'a' })], { problems: ['Failed to load pact:\n  \u001b[31mbroken.json\u001b[0m'] }))
  expect(one).toBe('PASS  a\nERROR Failed to load pact: broken.json\n\n1 interactions: 1 passed, 0 failed; 1 problem outside them\n')
  const two = formatVerificationText(reportOf([], { problems: ['x', 'y'] }))
  expect(two).toBe('ERROR x\nERROR y\n\n0 interactions: 0 passed, 0 failed; 2 problems outside them\n')
})

it('passes the JSON report only when the verifier passed, no interaction failed and no problem was found', () => {
  const run = { baseUrl: 'b', marker: 'm', pacts: 'p' }
  const passing = reportOf([outcome({ description: 'a' })])
  expect((toVerificationJson(passing, run) as { passed: boolean }).passed).toBe(true)
  expect((toVerificationJson({ ...passing, passed: false }, run) as { passed: boolean }).passed).toBe(false)
  expect((toVerificationJson({ ...passing, problems: ['x'] }, run) as { passed: boolean }).passed).toBe(false)
  expect((toVerificationJson(reportOf([outcome({ description: 'a', passed: false })], { passed: true }), run) as { passed: boolean }).passed).toBe(false)
})

it('writes every field of the JSON report, colours removed, missing values as null', () => {
  const report = reportOf(
    [
      outcome({ consumer: 'web', description: 'a', passed: false, durationMs: 12, mismatches: [{ kind: 'body', key: '$', message: '\u001b[31mdiffers\u001b[0m', expected: '1', actual: '2' }] }),
      outcome({ description: 'b', providerStates: ['animals exist'] }),
    ],
    { problems: ['\u001b[1mFailed\u001b[0m to load'], stateErrors: [{ state: 'animals exist', message: 'refused' }] },
  )
  expect(toVerificationJson(report, { baseUrl: 'https://s.example/v1', marker: '[animals-mock verify 1]', pacts: 'p.json' }, [warning('b'), warning('a', 'web')])).toEqual({
    command: 'verify',
    baseUrl: 'https://s.example/v1',
    marker: '[animals-mock verify 1]',
    pacts: 'p.json',
    passed: false,
    summary: { interactions: 2, passed: 1, failed: 1 },
    interactions: [
      {
        consumer: 'web',
        description: 'a',
        providerStates: [],
        result: 'failed',
        lead: 'the body differs at $: the deployment sent 2 where the pact expects 1',
        durationMs: 12,
        mismatches: [{ kind: 'body', key: '$', message: 'differs', expected: '1', actual: '2' }],
      },
      { consumer: null, description: 'b', providerStates: ['animals exist'], result: 'passed', durationMs: null, mismatches: [] },
    ],
    problems: ['Failed to load'],
    stateErrors: [{ state: 'animals exist', message: 'refused' }],
    warnings: [
      { consumer: null, description: 'b', message: '"b" calls GET /pets/{petId}' },
      { consumer: 'web', description: 'a', message: '"a" calls GET /pets/{petId}' },
    ],
  })
  expect((toVerificationJson(reportOf([]), { baseUrl: 'b', marker: 'm', pacts: 'p' }) as { warnings: unknown }).warnings).toEqual([])
})

it('writes a JUnit suite per consumer, a deprecation warning as the system-out of its own consumer\'s case', () => {
  const report = reportOf([
    outcome({ consumer: 'web', description: 'get', durationMs: 250 }),
    outcome({ consumer: 'mobile', description: 'get', passed: false }),
    outcome({ description: 'list', durationMs: 1000 }),
    outcome({ consumer: 'web', description: 'add', passed: false, mismatches: [{ kind: 'header', key: 'Location', message: 'missing', expected: '/pets/1' }, { kind: 'status', message: 'expected 201 but was 200' }] }),
  ])
  expect(toVerificationJUnit(report, [warning('get', 'web'), warning('list')])).toBe(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="animals-mock verify" tests="4" failures="2" errors="0">',
      '  <testsuite name="web - animals-service" tests="2" failures="1" errors="0" time="0.250">',
      '    <testcase name="get" classname="web.animals-service" time="0.250">',
      '      <system-out>WARNING: &quot;get&quot; calls GET /pets/{petId}</system-out>',
      '    </testcase>',
      '    <testcase name="add" classname="web.animals-service" time="0.000">',
      '      <failure message="the deployment answered 200 where the pact expects 201 (spec 4.2: &quot;201 | Pet (includes the assigned `id`) | Animal added&quot;)" type="status mismatch">' +
        'the deployment answered 200 where the pact expects 201 (spec 4.2: &quot;201 | Pet (includes the assigned `id`) | Animal added&quot;)\n' +
        'header Location: missing\nexpected: /pets/1\nstatus: expected 201 but was 200</failure>',
      '    </testcase>',
      '  </testsuite>',
      '  <testsuite name="mobile - animals-service" tests="1" failures="1" errors="0" time="0.000">',
      // Pact gave no duration: 0, never a case without a time.
      '    <testcase name="get" classname="mobile.animals-service" time="0.000">',
      '      <failure message="the verifier failed it without saying why" type="mismatch">the verifier failed it without saying why</failure>',
      '    </testcase>',
      '  </testsuite>',
      '  <testsuite name="pacts - animals-service" tests="1" failures="0" errors="0" time="1.000">',
      '    <testcase name="list" classname="pacts.animals-service" time="1.000">',
      '      <system-out>WARNING: &quot;list&quot; calls GET /pets/{petId}</system-out>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n'),
  )
})

it('writes an empty JUnit document when nothing was verified', () => {
  expect(toVerificationJUnit(reportOf([]))).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="animals-mock verify" tests="0" failures="0" errors="0">\n</testsuites>\n')
})

it('escapes every text of a JUnit document, and keeps what XML 1.0 allows around the characters it forbids', () => {
  const xml = toJUnitXml('<run> & "more"', [
    { name: "suite 'one'", cases: [{ name: 'a\u0000b', classname: 'c<d', timeSeconds: 0.0004, failure: { message: 'm&m', type: 't"t', details: 'd>d' }, systemOut: 'o<o' }] },
  ])
  expect(xml.split('\n')).toEqual([
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="&lt;run&gt; &amp; &quot;more&quot;" tests="1" failures="1" errors="0">',
    '  <testsuite name="suite &apos;one&apos;" tests="1" failures="1" errors="0" time="0.000">',
    '    <testcase name="a\uFFFDb" classname="c&lt;d" time="0.000">',
    '      <failure message="m&amp;m" type="t&quot;t">d&gt;d</failure>',
    '      <system-out>o&lt;o</system-out>',
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ])
  const allowed = '\t\n\r \u0020~\uD7FF\uE000\uFFFD\u{10000}\u{10FFFF}'
  expect(escapeXml(allowed)).toBe(allowed)
  for (const forbidden of ['\u0000', '\u0008', '\u000B', '\u000C', '\u001F', '\uD800', '\uDFFF', '\uFFFE', '\uFFFF']) {
    expect(escapeXml(`a${forbidden}b`), forbidden.codePointAt(0)?.toString(16)).toBe('a\uFFFDb')
  }
})

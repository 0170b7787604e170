import { expect, it } from 'vitest'
import { escapeXml } from '../../src/contracts/junit-xml.js'
import { formatVerificationText, toVerificationJson, toVerificationJUnit } from '../../src/contracts/verification-report.js'
import type { VerificationReport } from '../../src/contracts/verify-provider.js'

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
  expect(lines[2]).toBe('        status: expected 200 but was 404')
  expect(lines.slice(3, 6)).toEqual([
    "        header Sunset: Expected a header 'Sunset' but was missing",
    '          expected: "Thu, 05 Dec 2030 00:00:00 GMT"',
    '          actual:   (none)',
  ])
  // A long message keeps its end, where Pact says what was wrong.
  expect(lines[6]).toMatch(/^ {8}body \$: Expected x+ … x+ \(size 10\) to have minimum size of 20.$/)
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
  expect(xml).toContain('<failure message="status: expected 200 but was 404" type="status mismatch">status: expected 200 but was 404\nheader Sunset:')
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

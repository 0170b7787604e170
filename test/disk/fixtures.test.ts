import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, it } from 'vitest'
import { FIXTURES_DIR, FixtureError, loadFixture, resolveFixture } from '../../src/disk/fixtures.js'

const folder = mkdtempSync(join(tmpdir(), 'animals-mock-fixtures-'))

it('takes a bare name for a shipped fixture, and anything with a dot or a slash for a file', () => {
  expect(resolveFixture('large')).toBe(join(FIXTURES_DIR, 'large.json'))
  expect(resolveFixture('My-Fixture-2')).toBe(join(FIXTURES_DIR, 'My-Fixture-2.json'))
  expect(resolveFixture('default.json')).toBe(resolve('default.json'))
  expect(resolveFixture('./large')).toBe(resolve('large'))
  expect(resolveFixture('large/')).toBe(resolve('large'))
  expect(resolveFixture('qa data')).toBe(resolve('qa data'))
})

it('loads a shipped fixture by name', async () => {
  expect(await loadFixture('empty')).toEqual([])
  expect((await loadFixture('default')).length).toBeGreaterThan(0)
})

it('names the shipped fixtures when a bare name is none of them, and how to name a file', async () => {
  const refusal = await loadFixture('nope').catch((error: unknown) => error)
  expect(refusal).toBeInstanceOf(FixtureError)
  expect(refusal).toMatchObject({
    name: 'FixtureError',
    message: 'no shipped fixture is named "nope": the shipped ones are default, empty, large; a file needs a path, e.g. ./nope.json',
  })
})

it('says a file path names no file, with the path it looked at', async () => {
  const missing = join(folder, 'missing.json')
  await expect(loadFixture(missing)).rejects.toThrow(new FixtureError(`fixture ${missing}: no such file`))
})

it('passes on why a file could not be read when it exists', async () => {
  const refusal = await loadFixture(`${folder}/`).catch((error: unknown) => error)
  expect(refusal).toBeInstanceOf(FixtureError)
  expect((refusal as Error).message).toBe(`fixture ${folder}: Error: EISDIR: illegal operation on a directory, read`)
})

it('refuses a file that is not a fixture, naming the file and what is wrong', async () => {
  const file = join(folder, 'bad.json')
  writeFileSync(file, '[{"id":1,"name":"Rex"}]')
  const refusal = await loadFixture(file).catch((error: unknown) => error)
  expect(refusal).toBeInstanceOf(FixtureError)
  expect((refusal as Error).message).toMatch(new RegExp(`^fixture ${file}: .*categoryId`))
})

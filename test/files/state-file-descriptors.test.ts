import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createStore } from '../../src/service/store.js'
import { createStateWriter } from '../../src/files/state-file.js'

const dir = mkdtempSync(join(tmpdir(), 'state-descriptors-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The files of `folder` this process holds open, as Linux lists them. */
function openIn(folder: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`)
      return target.startsWith(`${folder}/`) ? [target] : []
    } catch {
      return [] // closed since it was listed
    }
  })
}

// A fake that saves its state every few seconds for days must not keep a descriptor per write.
it.skipIf(process.platform !== 'linux')('holds no file of the state folder open once a write is done', async () => {
  const store = createStore({ initial: [{ id: 1n, name: 'Rex', categoryId: 1 }] })
  const errors: unknown[] = []
  const writer = createStateWriter({ path: join(dir, 'state.json'), store: () => store, intervalMs: 600_000, onError: (error) => errors.push(error) })
  await writer.save(true)
  await writer.save(true)
  expect(openIn(dir)).toEqual([])
  await writer.stop()
  expect(openIn(dir)).toEqual([])
  expect(errors).toEqual([])
  expect(readdirSync(dir)).toEqual(['state.json'])
})

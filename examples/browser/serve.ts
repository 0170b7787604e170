import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve as resolvePath, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildExample, DEFAULT_OUT_DIR } from './build.js'

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
}

/** A static server of the built example. */
export type StaticServer = {
  /** The origin, e.g. `http://127.0.0.1:5173`. */
  readonly url: string
  /** Every path asked for, in order: the worker answers `/v1` in the page, so none should be there. */
  readonly requested: readonly string[]
  close(): Promise<void>
}

/**
 * Serves the files of `dir` on loopback (`port` 0 picks a free one); `/` is `index.html`. A page
 * needs http(s) for a service worker, so `file://` will not do.
 */
export async function serveStatic(dir: string, port = 0): Promise<StaticServer> {
  const root = resolvePath(dir)
  const requested: string[] = []
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    requested.push(path)
    const file = fileFor(root, path)
    const type = file === undefined ? undefined : TYPES[extname(file)]
    const refuse = (): void => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    }
    if (file === undefined || type === undefined) return refuse()
    stat(file).then((info) => {
      if (!info.isFile()) return refuse()
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' })
      createReadStream(file).pipe(res)
    }, refuse)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const { port: actual } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${actual}`,
    requested,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The file a URL path names inside `root`, or undefined for a bad escape or a path outside it. */
function fileFor(root: string, path: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(path === '/' ? '/index.html' : path)
  } catch {
    return undefined
  }
  const file = normalize(join(root, decoded))
  return file.startsWith(root + sep) ? file : undefined
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = await buildExample(DEFAULT_OUT_DIR)
  const server = await serveStatic(dir, Number(process.env.PORT ?? 5173))
  console.log(`example at ${server.url}/ (Ctrl-C stops it)`)
}

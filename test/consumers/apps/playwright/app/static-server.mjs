// Serves app/ on 127.0.0.1:$PORT: the frontend the end-to-end tests open.
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' }
createServer(async (request, response) => {
  const path = new URL(request.url ?? '/', 'http://app').pathname
  const file = path === '/' ? 'index.html' : path.slice(1)
  const type = types[file.slice(file.lastIndexOf('.'))]
  if (type === undefined || file.includes('/')) return response.writeHead(404).end()
  response.writeHead(200, { 'content-type': type }).end(await readFile(new URL(file, import.meta.url)))
}).listen(Number(process.env.PORT), '127.0.0.1')

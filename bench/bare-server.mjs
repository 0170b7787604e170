// The practical upper bound for Node on this machine: node:http answering each route with the very
// bytes the fake answers it with (status, headers and body, captured from the fake), precomputed.
// Routes come as JSON in BARE_ROUTES: { "GET /v1/pets?limit=20": { "status": 200, "headers": {...}, "body": "..." } }.
// BARE_WRITES=batched writes the answers of one turn of the event loop together, as the fake does
// (see sendOutbox in src/node/exchange.ts); inline, the default, writes each as it is handled, as
// a plain node:http server does.
import { createServer } from 'node:http'

const routes = new Map(
  Object.entries(JSON.parse(process.env.BARE_ROUTES ?? '{}')).map(([key, { status, headers = {}, body }]) => {
    const bytes = Buffer.from(body)
    return [key, { status, body: bytes, headers: { ...headers, 'content-length': bytes.length } }]
  }),
)
const fallback = routes.values().next().value ?? { status: 200, body: Buffer.from('[]'), headers: { 'content-length': 2 } }

const write = (res, route) => {
  res.writeHead(route.status, route.headers)
  res.end(route.body)
}
let outbox = []
const writeOutbox = () => {
  const answers = outbox
  outbox = []
  for (const [res, route] of answers) write(res, route)
}
const answer =
  process.env.BARE_WRITES === 'batched'
    ? (res, route) => {
        if (outbox.length === 0) setImmediate(writeOutbox)
        outbox.push([res, route])
      }
    : write

const server = createServer((req, res) => {
  const route = routes.get(`${req.method} ${req.url}`) ?? fallback
  // Read (and drop) a request body as the fake does, so both pay for it.
  if (req.method === 'POST') {
    req.on('data', () => {})
    req.on('end', () => answer(res, route))
    return
  }
  answer(res, route)
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))

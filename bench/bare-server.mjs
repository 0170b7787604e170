// The practical upper bound for Node on this machine: node:http answering each route with
// precomputed bytes of the same size as the fake's answer. Routes come as JSON in BARE_ROUTES:
// { "GET /v1/pets?limit=20": { "status": 200, "body": "..." } }. Prints its base URL like the CLI.
import { createServer } from 'node:http'

const routes = new Map(
  Object.entries(JSON.parse(process.env.BARE_ROUTES ?? '{}')).map(([key, { status, body }]) => [
    key,
    { status, body: Buffer.from(body), headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
  ]),
)
const fallback = routes.values().next().value ?? { status: 200, body: Buffer.from('[]'), headers: { 'content-length': 2 } }

const server = createServer((req, res) => {
  const route = routes.get(`${req.method} ${req.url}`) ?? fallback
  // Read (and drop) a request body as the fake does, so both pay for it.
  if (req.method === 'POST') {
    req.on('data', () => {})
    req.on('end', () => {
      res.writeHead(route.status, route.headers)
      res.end(route.body)
    })
    return
  }
  res.writeHead(route.status, route.headers)
  res.end(route.body)
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`animals-mock listening on http://127.0.0.1:${server.address().port}/v1\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))

// A stand-in for an app's end-to-end suite: it creates an animal and finds it, through the base URL
// the wrapper gives it. E2E_API_KEY is the key of the service behind it; E2E_EXIT makes it fail.
const base = process.env.ANIMALS_MOCK_URL
const headers = { authorization: `Bearer ${process.env.E2E_API_KEY ?? 'e2e-key'}`, 'content-type': 'application/json' }
const created = await fetch(`${base}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'From the e2e suite', categoryId: 1, status: 'sold' }) })
const listed = await (await fetch(`${base}/pets?status=sold&limit=100`, { headers })).json()
console.log(`e2e: created ${created.status}, listed ${listed.length} sold at ${base}`)
process.exit(Number(process.env.E2E_EXIT ?? '0'))

// A stand-in for dist/cli/verify-worker.js that answers with the environment it was started with
// (as JSON, in place of a reason), so that a test can see what Pact's verifier would have read.
process.once('message', () => {
  process.send({ ok: false, message: JSON.stringify(process.env) })
})

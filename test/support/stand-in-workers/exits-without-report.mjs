// A stand-in for dist/cli/verify-worker.js that ends without answering, as a crashed worker does:
// it prints STAND_IN_STDOUT and STAND_IN_STDERR and exits with STAND_IN_EXIT_CODE.
process.once('message', () => {
  process.stdout.write(process.env.STAND_IN_STDOUT ?? '')
  process.stderr.write(process.env.STAND_IN_STDERR ?? '')
  process.exitCode = Number(process.env.STAND_IN_EXIT_CODE ?? '0')
})

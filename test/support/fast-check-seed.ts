/**
 * The seed of every fast-check property in a run: `FUZZ_SEED` when set, a fresh one otherwise.
 * It is printed once, so a failure in CI can be replayed with `FUZZ_SEED=<seed>`.
 */
export const FAST_CHECK_SEED: number =
  process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED)

console.log(`fast-check seed ${FAST_CHECK_SEED} (replay with FUZZ_SEED=${FAST_CHECK_SEED})`)

import { BaseSequencer, type TestSpecification } from 'vitest/node'

// Order of test files in a mutation run. Stryker runs one mutant's tests with bail, so the
// run ends at the first failure: a file that just failed goes first (the next mutant is often
// its neighbour in the source), then the quickest files, so a mutant a unit test catches never
// waits for the HTTP and CLI suites. Vitest's own order is the slowest first, which suits
// parallel workers and not one worker that stops early.
export class QuickFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root
    const cache = this.ctx.cache
    const known = (spec: TestSpecification) => {
      const key = `${spec.project.name}:${spec.moduleId.slice(root.length + 1)}`
      return { results: cache.getFileTestResults(key), size: cache.getFileStats(key)?.size ?? 0 }
    }
    return [...files]
      .map((spec) => ({ spec, ...known(spec) }))
      .sort((a, b) => {
        const failedFirst = Number(b.results?.failed ?? false) - Number(a.results?.failed ?? false)
        if (failedFirst !== 0) return failedFirst
        if (a.results && b.results) return a.results.duration - b.results.duration
        return a.size - b.size
      })
      .map(({ spec }) => spec)
  }
}

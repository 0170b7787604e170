/** The commands that create animals on a deployment, and name them so. */
export type MarkingCommand = 'verify' | 'parity'

/** Whether a text may be a run id: it ends up in animals' names and in CI logs. */
export function isRunId(text: string): boolean {
  // Written here, not in a module-level constant, so the tests that check a run id cover the pattern.
  return /^[A-Za-z0-9._-]{1,64}$/.test(text)
}

/**
 * A run id from the time and four random hex digits, e.g. `20301205T093000Z-3f9a`: sortable, and
 * unlikely to repeat between two jobs started in the same second.
 */
export function createRunId(now: Date, random: () => number): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.[0-9]+/, '')
  const suffix = Math.floor(random() * 0x10000)
    .toString(16)
    .padStart(4, '0')
  return `${stamp}-${suffix}`
}

/**
 * The text appended to the name of every animal a run creates, so the animals of a run can be
 * found later (the service cannot delete them).
 * @example runMarker('verify', '20301205T093000Z-3f9a') // '[animals-mock verify 20301205T093000Z-3f9a]'
 */
export function runMarker(command: MarkingCommand, runId: string): string {
  return `[animals-mock ${command} ${runId}]`
}

/**
 * A name with the run's marker at its end; the name alone when there is no marker.
 * @example markName('Biscuit', '[animals-mock verify 42]') // 'Biscuit [animals-mock verify 42]'
 */
export function markName(name: string, marker: string | undefined): string {
  return marker === undefined ? name : `${name} ${marker}`
}

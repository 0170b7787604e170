/** What a secret is replaced with wherever it would be shown. */
export const REDACTED = '[redacted]'

/** Removes secrets from text: a function of text to text. */
export type Scrubber = (text: string) => string

/**
 * A scrubber that replaces every occurrence of each secret, as written and percent-encoded, with
 * `[redacted]`. Empty and missing secrets are skipped.
 * @example createScrubber(['k-123'])('Bearer k-123') // 'Bearer [redacted]'
 */
export function createScrubber(secrets: readonly (string | undefined)[]): Scrubber {
  const forms = new Set<string>()
  for (const secret of secrets) {
    if (secret === undefined || secret === '') continue
    forms.add(secret)
    forms.add(encodeURIComponent(secret))
  }
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length)
  return (text) => ordered.reduce((scrubbed, form) => scrubbed.split(form).join(REDACTED), text)
}

/** What `element` sets: text, never HTML, so names typed by users cannot become markup. */
export type ElementOptions = {
  readonly className?: string
  readonly text?: string
  readonly title?: string
  readonly testId?: string
}

/**
 * The page's element marked `data-testid="<id>"`, checked to be of the expected kind.
 * @example const table = byTestId('animals', HTMLTableElement)
 */
export function byTestId<T extends Element>(id: string, kind: { new (): T }): T {
  const found = document.querySelector(`[data-testid="${id}"]`)
  if (!(found instanceof kind)) throw new Error(`The dashboard page has no ${kind.name} marked ${id}.`)
  return found
}

/** Creates an element with text content and children; strings become text nodes. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  children: readonly (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag)
  if (options.className !== undefined) created.className = options.className
  if (options.text !== undefined) created.textContent = options.text
  if (options.title !== undefined) created.title = options.title
  if (options.testId !== undefined) created.dataset.testid = options.testId
  created.append(...children)
  return created
}

/** The body of a table, found once. */
export function tableBody(table: HTMLTableElement): HTMLTableSectionElement {
  const body = table.tBodies[0]
  if (body === undefined) throw new Error('The dashboard table has no body.')
  return body
}

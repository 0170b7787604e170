import { byTestId } from './dom.js'

/** Asks for the control token when the fake requires one; keeps it in this tab only. */
export type TokenPrompt = {
  /** The token given in this tab, if any; it is sent, never shown. */
  readonly token: string | undefined
  /** Shows the form, saying why (a missing or a refused token). */
  show(reason: string): void
}

const STORAGE_KEY = 'animals-mock:control-token'

/** Creates the prompt over its form; `onToken` runs once a token was entered. */
export function createTokenPrompt(onToken: () => void): TokenPrompt {
  const form = byTestId('token-form', HTMLFormElement)
  const input = byTestId('token-input', HTMLInputElement)
  const error = byTestId('token-error', HTMLElement)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    sessionStorage.setItem(STORAGE_KEY, input.value)
    input.value = ''
    form.hidden = true
    onToken()
  })
  return {
    get token() {
      return sessionStorage.getItem(STORAGE_KEY) ?? undefined
    },
    show(reason) {
      error.textContent = reason
      form.hidden = false
      input.focus()
    },
  }
}

// orval's fetch mutator: the generated paths start with /v1; the origin is the app's to choose.
let origin = 'http://localhost'

export function setOrigin(url: string): void {
  origin = new URL(url).origin
}

export const customFetch = async <T>(url: string, options: RequestInit): Promise<T> => {
  const response = await fetch(new URL(url, origin), options)
  const text = await response.text()
  return { data: text === '' ? undefined : JSON.parse(text), status: response.status, headers: response.headers } as T
}

// With MOCK_API=msw, the server's own fetches to the animals service are answered by animals-mock's
// msw handlers in this process: no service, no port.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.MOCK_API !== 'msw') return
  const { setupServer } = await import('msw/node')
  const { bypassUnhandledRequests, createHandlers } = await import('animals-mock/msw')
  const { API } = await import('./lib/api')
  setupServer(...createHandlers({ baseUrl: API })).listen(bypassUnhandledRequests)
}

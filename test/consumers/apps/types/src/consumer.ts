// Every entry point of the published package, as a TypeScript consumer uses them.
import { createFake, type Fake, type Pet } from 'animals-mock'
import { createAnimalsClient, type AnimalsClient, isAnimalsApiError } from 'animals-mock/contracts'
import { createHandlers, failOnUnhandledRequests } from 'animals-mock/msw'
import { startServer } from 'animals-mock/node'
import { generatePets } from 'animals-mock/seed'
import { setupServer } from 'msw/node'

const fake: Fake = createFake({ keys: ['k'] })
const pets: readonly Pet[] = fake.snapshot()
const server = setupServer(...createHandlers({ baseUrl: 'https://api.example.com/v1', fake }))
server.listen(failOnUnhandledRequests)
const client: AnimalsClient = createAnimalsClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'k' })
const seeded: Pet[] = generatePets({ seed: 7, count: 3 })
export const uses = [pets.length, client, startServer, isAnimalsApiError, seeded] as const

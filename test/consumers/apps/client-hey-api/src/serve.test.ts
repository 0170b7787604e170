// Run under `animals-mock serve --port 0 -- vitest run`, which puts the API base in ANIMALS_MOCK_URL.
import { scenarios } from './scenarios.js'

const baseUrl = process.env.ANIMALS_MOCK_URL
if (baseUrl === undefined) throw new Error('run under `animals-mock serve -- vitest run`: ANIMALS_MOCK_URL is not set')
scenarios(baseUrl)

import type { Meta, StoryObj } from '@storybook/react-vite'
import { createFake, createHandlers, type FakeOptions } from 'animals-mock/msw'
import { generatePets } from 'animals-mock/seed'
import { PetsList } from './PetsList'

/** The fake's handlers for one story: its own store, so no story changes another's. */
const service = (options: FakeOptions = {}) => ({ msw: { handlers: createHandlers({ baseUrl: '/v1', fake: createFake(options) }) } })

const meta = { title: 'PetsList', component: PetsList } satisfies Meta<typeof PetsList>
export default meta
type Story = StoryObj<typeof meta>

/** The 30 animals the fake starts with. */
export const DefaultAnimals: Story = { parameters: service() }

/** An empty store. */
export const EmptyStore: Story = { parameters: service({ pets: [] }) }

/** A store of 1,000 generated animals: the list shows the first 100 (limit=100). */
export const LongList: Story = { parameters: service({ pets: generatePets({ count: 1000, seed: 7 }) }) }

/** The service down: a 503 with the Error body, chosen by the request's `Prefer: code=503`. */
export const ServiceDown: Story = { args: { prefer: 'code=503' }, parameters: service() }

/** A missing key: the service's 401. */
export const NoKey: Story = { args: { apiKey: '' }, parameters: service() }

/** A slow service: every answer after 1.5 s, so the loading state shows first. */
export const SlowAnswer: Story = { parameters: service({ latency: { ms: 1500 } }) }

// A server component, rendered for each request from the service's animals.
import { addPet } from './actions'
import { listPets } from '../lib/api'

export const dynamic = 'force-dynamic'

export default async function Home() {
  const pets = await listPets()
  return (
    <main>
      <p role="status">{pets.length} animals</p>
      <form action={addPet}>
        <input name="name" aria-label="name" />
        <button type="submit">Add</button>
      </form>
      <ul>
        {pets.map((pet) => (
          <li key={pet.id}>{pet.name}</li>
        ))}
      </ul>
    </main>
  )
}

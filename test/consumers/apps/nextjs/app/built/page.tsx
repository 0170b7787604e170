// Prerendered by `next build`: the service must answer while the app is built.
import { listPets } from '../../lib/api'

export const dynamic = 'force-static'

export default async function Built() {
  const pets = await listPets()
  return <p role="status">{pets.length} animals when built</p>
}

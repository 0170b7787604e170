'use server'
import { revalidatePath } from 'next/cache'
import { createPet } from '../lib/api'

// A server action: the form posts the name, the server creates the animal in the service.
export async function addPet(form: FormData): Promise<void> {
  await createPet(String(form.get('name')))
  revalidatePath('/')
}

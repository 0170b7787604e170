import { BadGatewayException, HttpException, Injectable } from '@nestjs/common'

export type Animal = { id: number; name: string; categoryId: number; status?: 'available' | 'pending' | 'sold' }
export type NewAnimal = Omit<Animal, 'id'>

/** The animals service behind this backend-for-frontend: its base URL and key from the environment. */
@Injectable()
export class AnimalsService {
  private readonly baseUrl = process.env.ANIMALS_API_URL ?? 'http://localhost:4010/v1'
  private readonly key = process.env.ANIMALS_API_KEY ?? 'dev-key'

  list(status?: string): Promise<Animal[]> {
    return this.call(status === undefined ? '/pets' : `/pets?status=${encodeURIComponent(status)}`)
  }

  add(animal: NewAnimal): Promise<Animal> {
    return this.call('/pets', { method: 'POST', body: JSON.stringify(animal) })
  }

  // The service's own errors (4xx) pass through as they are; its failures are this backend's 502.
  private async call<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' } })
    if (response.status >= 500) throw new BadGatewayException(`The animals service answered ${response.status}.`)
    const body = await response.json()
    if (!response.ok) throw new HttpException(body, response.status)
    return body as T
  }
}

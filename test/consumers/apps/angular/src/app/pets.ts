// The component under test: lists the animals, adds one, and shows an error, over Angular's HttpClient.
import { HttpClient, HttpErrorResponse } from '@angular/common/http'
import { Component, inject, input, signal, type OnInit } from '@angular/core'

type Pet = { id: number; name: string; categoryId: number; status?: string }

@Component({
  selector: 'app-pets',
  template: `
    @if (error(); as message) {
      <p role="alert">{{ message }}</p>
    } @else if (pets(); as list) {
      <p role="status">{{ list.length }} animals</p>
      <button type="button" (click)="add()">Add</button>
      <ul>
        @for (pet of list; track pet.id) {
          <li>{{ pet.name }}</li>
        }
      </ul>
    } @else {
      <p role="status">Loading animals</p>
    }
  `,
})
export class Pets implements OnInit {
  readonly baseUrl = input('/v1')
  readonly apiKey = input('app-key')
  readonly pets = signal<Pet[] | undefined>(undefined)
  readonly error = signal<string | undefined>(undefined)
  private readonly http = inject(HttpClient)

  private get headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.apiKey()}` }
  }

  ngOnInit(): void {
    this.load()
  }

  load(): void {
    this.http.get<Pet[]>(`${this.baseUrl()}/pets?limit=100`, { headers: this.headers }).subscribe({
      next: (pets) => this.pets.set(pets),
      error: (error: HttpErrorResponse) => this.error.set(`Error ${error.error.status}: ${error.error.code}`),
    })
  }

  add(): void {
    this.http.post<Pet>(`${this.baseUrl()}/pets`, { name: 'Biscuit', categoryId: 3 }, { headers: this.headers }).subscribe({
      next: () => this.load(),
      error: (error: HttpErrorResponse) => this.error.set(`Error ${error.error.status}: ${error.error.code}`),
    })
  }
}

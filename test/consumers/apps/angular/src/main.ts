import { provideHttpClient } from '@angular/common/http'
import { bootstrapApplication } from '@angular/platform-browser'
import { Pets } from './app/pets'

bootstrapApplication(Pets, { providers: [provideHttpClient()] }).catch((error: unknown) => console.error(error))

import { Body, Controller, Get, Post, Query } from '@nestjs/common'
import { AnimalsService, type NewAnimal } from './animals.service'

@Controller('animals')
export class AnimalsController {
  constructor(private readonly animals: AnimalsService) {}

  @Get()
  list(@Query('status') status?: string) {
    return this.animals.list(status)
  }

  @Post()
  add(@Body() animal: NewAnimal) {
    return this.animals.add(animal)
  }
}

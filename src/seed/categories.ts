/**
 * The categories the fake's generated animals belong to, with their names: the spec shows only the
 * `categoryId` reference (2), so the names are the fake's own labels (docs/decisions.md), shown by
 * the dashboard beside the number.
 */
export const CATEGORIES = [
  { id: 1, name: 'Dogs', weight: 30 },
  { id: 2, name: 'Cats', weight: 28 },
  { id: 3, name: 'Birds', weight: 10 },
  { id: 4, name: 'Fish', weight: 9 },
  { id: 5, name: 'Rabbits', weight: 8 },
  { id: 6, name: 'Rodents', weight: 7 },
  { id: 7, name: 'Reptiles', weight: 5 },
  { id: 8, name: 'Horses', weight: 3 },
] as const

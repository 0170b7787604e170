// Preloaded with --import (NODE_OPTIONS): the process runs as if @pact-foundation/pact, an
// optional peer dependency, were not installed.
import { register } from 'node:module'

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === '@pact-foundation/pact' || specifier.startsWith('@pact-foundation/pact/')) {
    const error = new Error("Cannot find package '" + specifier + "'")
    error.code = 'ERR_MODULE_NOT_FOUND'
    throw error
  }
  return next(specifier, context)
}`
register(`data:text/javascript,${encodeURIComponent(hooks)}`)

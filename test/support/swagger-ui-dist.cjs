// Preloaded (`node --require`) into a CLI a test spawns, to run it as where swagger-ui-dist, an
// optional peer dependency, is not installed; or, with SWAGGER_UI_DIST_DIR set, as where it is
// installed in that folder (a copy missing some of its files, say).
const Module = require('node:module')
const { join } = require('node:path')

const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  if (request !== 'swagger-ui-dist' && !request.startsWith('swagger-ui-dist/')) return resolve.call(this, request, ...rest)
  const folder = process.env.SWAGGER_UI_DIST_DIR
  if (folder) return join(folder, request.slice('swagger-ui-dist/'.length) || 'index.js')
  throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' })
}

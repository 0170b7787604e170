import { readFile } from 'node:fs/promises'
import { apiError, toErrorResponse } from '../service/errors.js'
import type { PlainResponse } from '../service/http.js'
import type { Page } from './site.js'

/** Every file a page loads is served under this prefix. */
export const ASSETS_BASE = '/assets/'

/** Content types of the files the pages use, by extension. */
export const ASSET_TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
} as const satisfies Record<string, string>

/**
 * A page serving a file from disk, read on first request and kept: the docs bundle weighs 1.7 MB,
 * so a fake that nobody browses never reads it. A missing file answers 404 with `remedy`, what to do.
 */
export function assetFile(file: string, type: string, remedy: string): Page {
  let response: Promise<PlainResponse> | undefined
  return () => {
    response ??= readFile(file, 'utf8').then(
      (body) => ({ status: 200, headers: { 'content-type': `${type}; charset=utf-8`, 'x-content-type-options': 'nosniff' }, body }),
      () => {
        response = undefined // built later, it is served without a restart
        return toErrorResponse(apiError('route_not_found', `${file} is missing; ${remedy}.`))
      },
    )
    return response
  }
}

/**
 * Builds a value on first use and keeps it: for documents derived from the contract with a parser
 * that is loaded only then.
 */
export function lazily<T>(build: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined
  return () => {
    value ??= build()
    return value
  }
}

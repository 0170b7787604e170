#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { CliError, isCliError } from './cli/cli-error.js'
import { nearestName } from './cli/parse-options.js'
import { seed } from './cli/seed.js'
import { serve } from './cli/serve.js'

const HELP = `Usage: animals-mock <command> [options]

A faithful, stateful fake of the animals service, and tools for its contracts.

Commands:
  serve     serve the fake over HTTP (see: animals-mock serve --help)
  seed      generate realistic animals as a fixture (see: animals-mock seed --help)
  verify    replay the pacts against a deployment (see: animals-mock verify --help)
  parity    compare a deployment's answers with the fake's (see: animals-mock parity --help)
  proxy     forward to a deployment, judging every answer (see: animals-mock proxy --help)

Options:
  -h, --help      show this help
  -v, --version   show the version

Examples:
  animals-mock serve --port 4010
  animals-mock seed --count 500 --seed 7 --out qa.json
  ANIMALS_MOCK_VERIFY_KEY=... animals-mock verify --base-url https://staging.example/v1
  ANIMALS_MOCK_VERIFY_KEY=... animals-mock parity --base-url https://staging.example/v1
`

const COMMANDS = ['serve', 'seed', 'verify', 'parity', 'proxy', 'help', 'version']

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv
  switch (command) {
    case 'serve':
      return serve(rest, process.env)
    case 'seed':
      return seed(rest)
    // Loaded on demand: serve's start-up never pays for them.
    case 'verify':
      process.exitCode = await (await import('./cli/verify.js')).verify(rest, process.env)
      return
    case 'parity':
      process.exitCode = await (await import('./cli/parity.js')).parity(rest, process.env)
      return
    case 'proxy':
      process.exitCode = await (await import('./cli/proxy.js')).proxy(rest, process.env)
      return
    case undefined:
    case 'help':
    case '-h':
    case '--help':
      process.stdout.write(HELP)
      return
    case 'version':
    case '-v':
    case '--version':
      process.stdout.write(`${packageVersion()}\n`)
      return
    default:
      throw new CliError(unknownCommand(command))
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (isCliError(error)) {
    process.stderr.write(`animals-mock: ${error.message}\n`)
    process.exitCode = error.exitCode
    return
  }
  // A server may still be listening: a bug ends the process rather than leave it serving, or a
  // CI job around it waiting, after it said it failed.
  process.stderr.write(`animals-mock: unexpected failure, a bug: ${error instanceof Error ? error.stack : String(error)}\n`, () => process.exit(1))
})

function unknownCommand(command: string): string {
  const nearest = command.startsWith('-') ? nearestName(command.replace(/^-+/, ''), ['help', 'version']) : nearestName(command, COMMANDS)
  const suggestion = nearest === undefined ? '' : `; did you mean ${command.startsWith('-') ? '--' : ''}${nearest}?`
  return `unknown ${command.startsWith('-') ? 'option' : 'command'} "${command}"${suggestion} (animals-mock --help lists the commands)`
}

function packageVersion(): string {
  // dist/cli.js is one folder below the package's root.
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown }
  return String(manifest.version)
}

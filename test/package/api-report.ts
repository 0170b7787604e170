/**
 * The public API of each entry point, as API Extractor reads the built declarations, kept in
 * `api/<entry>.api.md`: a change to what the package offers shows in review as a change of those
 * files. `npm run api` renews them; `checkApiReports()` (run by `npm test`) says which differ.
 */
import { Extractor, ExtractorConfig, ExtractorLogLevel, type IConfigFile } from '@microsoft/api-extractor'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Each entry point of package.json's `exports`, by the name of its report. */
export const ENTRY_POINTS = { 'animals-mock': 'index', msw: 'msw/index', node: 'node/index', contracts: 'contracts/index', seed: 'seed/index' } as const

/** What one entry point's report came to. */
export type ApiReport = { readonly entry: string; readonly changed: boolean; readonly problems: readonly string[] }

function configOf(report: string, declarations: string): ExtractorConfig {
  const configObject: IConfigFile = {
    projectFolder: ROOT,
    mainEntryPointFilePath: join(ROOT, 'dist', `${declarations}.d.ts`),
    compiler: {
      overrideTsconfig: {
        compilerOptions: { target: 'es2023', module: 'nodenext', moduleResolution: 'nodenext', types: ['node'], strict: true, skipLibCheck: true, lib: ['es2023', 'dom'] },
        files: [join(ROOT, 'dist', `${declarations}.d.ts`)],
      },
    },
    apiReport: { enabled: true, reportFileName: `${report}.api.md`, reportFolder: join(ROOT, 'api'), reportTempFolder: join(ROOT, 'reports', 'api') },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      // Release tags (@public, @beta) are not this package's way of saying what is public: its exports are.
      extractorMessageReporting: { 'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None }, 'ae-undocumented': { logLevel: ExtractorLogLevel.None }, default: { logLevel: ExtractorLogLevel.Warning } },
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
    },
  }
  return ExtractorConfig.prepare({ configObject, configObjectFullPath: undefined, packageJsonFullPath: join(ROOT, 'package.json') })
}

/** Runs API Extractor over every entry point; `update` writes the reports, else only compares. */
export function runApiReports(update: boolean): ApiReport[] {
  mkdirSync(join(ROOT, 'reports', 'api'), { recursive: true })
  return Object.entries(ENTRY_POINTS).map(([report, declarations]) => {
    const problems: string[] = []
    const result = Extractor.invoke(configOf(report, declarations), {
      localBuild: update,
      messageCallback: (message) => {
        // The report's own notices (`console-api-report-*`) say what `changed` says; the rest are problems of the surface.
        if (message.messageId.startsWith('ae-') && message.logLevel !== ExtractorLogLevel.None) problems.push(message.formatMessageWithoutLocation())
        message.handled = true
      },
    })
    return { entry: report, changed: result.apiReportChanged, problems }
  })
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const { entry, changed, problems } of runApiReports(true)) {
    console.log(`${entry}: ${changed ? 'report renewed' : 'unchanged'}`)
    for (const problem of problems) console.log(`  ${problem}`)
  }
}

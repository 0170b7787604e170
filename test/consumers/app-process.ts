/** Running a consumer app's commands on the Node its users run. */
import { execFileSync, spawn } from 'node:child_process'
import { dirname, join } from 'node:path'

export type Run = { readonly code: number | null; readonly stdout: string; readonly stderr: string }

export function run(node: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    // The app's Node first on PATH, so npx and the package's bin run on it too.
    const path = `${dirname(node)}:${process.env.PATH ?? ''}`
    const child = spawn(node, [...args], { cwd, env: { ...process.env, PATH: path, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text))
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** npx of the machine's npm, run on the app's Node. */
export const NPX = join(dirname(execFileSync('which', ['npm'], { encoding: 'utf8' }).trim()), 'npx')


/** npm of the machine, run on the app's Node (its scripts then find that Node first on PATH). */
export const NPM = join(dirname(NPX), 'npm')

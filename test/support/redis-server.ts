// A real redis-server (Debian's, `apt-get install redis-server`) for a test: on a free loopback
// port, its files in a temporary directory, stopped and removed by `stop()`. Nothing here comes from src/.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const REDIS_SERVER = '/usr/bin/redis-server'
export const hasRedis = existsSync(REDIS_SERVER)

export type RedisServer = {
  readonly port: number
  readonly url: string
  readonly dir: string
  /** Stops it (SIGTERM: with the append-only file on, what was acknowledged is on disk first). */
  stop(): Promise<void>
  /** Kills it at once (SIGKILL). */
  kill(): Promise<void>
  /** Freezes it (SIGSTOP): connected, it answers nothing until `resume()`. */
  pause(): void
  resume(): void
  /**
   * Starts it again on the same port and directory, reading its append-only file back, with
   * `args` added to those it started with; with `loaded: false`, once it answers, loading or not.
   */
  restart(args?: readonly string[], options?: { readonly loaded?: boolean }): Promise<void>
  /** Stops it and removes its directory. */
  remove(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts redis-server; `appendfsync` always makes each acknowledged write durable before the
 * answer; `args` are added (`--requirepass`, `--maxmemory`...).
 */
export async function startRedis(options: { readonly appendfsync?: 'always' | 'everysec'; readonly args?: readonly string[] } = {}): Promise<RedisServer> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'animals-mock-redis-'))
  let child: ChildProcess | undefined
  const start = async (extra: readonly string[] = [], { loaded = true }: { readonly loaded?: boolean } = {}): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', options.appendfsync ?? 'always', '--daemonize', 'no', '--logfile', join(dir, 'redis.log'), ...(options.args ?? []), ...extra]
    const started = spawn(REDIS_SERVER, args, { stdio: 'ignore' })
    child = started
    for (let attempt = 0; ; attempt++) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`)
      if (await answers(port, loaded)) return
      if (attempt > 400) throw new Error('redis-server did not start')
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child
    child = undefined
    if (running === undefined || running.exitCode !== null) return
    await new Promise((resolve) => {
      running.once('exit', resolve)
      running.kill(signal)
    })
  }
  await start()
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    restart: start,
    async remove() {
      await end('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Whether a Redis on `port` answers PING (spoken by hand: this file uses no Redis client): PONG, or
 * that it needs a password; or, unless `loaded`, that it is loading its data.
 */
function answers(port: number, loaded: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port)
    let reply = ''
    socket.setEncoding('utf8')
    socket.on('connect', () => socket.write('PING\r\n'))
    socket.on('data', (text: string) => {
      reply += text
      if (reply.includes('\r\n')) {
        socket.destroy()
        resolve(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH') || (!loaded && reply.startsWith('-LOADING')))
      }
    })
    socket.on('error', () => resolve(false))
  })
}

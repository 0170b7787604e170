import { createHash } from 'node:crypto'
import { StoreUnavailable } from '../store/port.js'

/**
 * One Redis, as the stores use it: a command, or a Lua script by its SHA-1 (sent whole once when
 * Redis does not know it, after a restart). Each rejects within `timeoutMs`, and at once while
 * Redis is unreachable or cannot serve (loading, out of memory, read-only), with a
 * `StoreUnavailable`: never a hang. Any other error reply is a bug, rejected as Redis gave it.
 */
export type RedisCall = {
  command(args: readonly string[]): Promise<unknown>
  script(source: string, keys: readonly string[], args: readonly string[]): Promise<unknown>
  /**
   * Whether Redis answers now: connected, and no command it was sent since its last answer has
   * gone past its deadline (a frozen or overloaded Redis answers nothing while it stays connected).
   */
  answering(): boolean
}

/** A connection to Redis: what the stores call, whether it is up, and how to let go of it. */
export type RedisConnection = RedisCall & {
  /** The URL without its password, for lines and /healthz. */
  readonly where: string
  /** Whether commands can go out now; the connection comes back by itself when Redis does. */
  ready(): boolean
  /** Called each time the connection is (again) ready: the first time, and after Redis came back. */
  onReady(listener: () => void): void
  /** While it is not ready: why the last attempt to connect failed, if one did. */
  problem(): ConnectionProblem | undefined
  close(): Promise<void>
}

/** Why a connection could not be made, for a person: the cause, and whether trying again can help. */
export type ConnectionProblem = { readonly reason: string; readonly lasting: boolean }

/** Refusals that trying again cannot mend, by what Redis answered: the URL or the server must change. */
const LASTING_PROBLEMS: readonly (readonly [RegExp, string])[] = [
  [/^WRONGPASS|^ERR invalid password/, 'Redis refused the user or password in the URL'],
  [/^NOAUTH/, 'Redis needs a password: give it in the URL (redis://:<password>@host:port)'],
  [/DB index is out of range|invalid DB index/, "Redis has no such database: the URL's /<db> is past the databases it has (16 unless configured)"],
  [/^NOPERM/, 'the Redis user in the URL may not run a command the fake needs (EVALSHA, hashes, sorted sets)'],
]

/** What a failed attempt to connect says: lasting (a refusal) or passing (unreachable, loading). */
function problemOf(message: string): ConnectionProblem {
  const known = LASTING_PROBLEMS.find(([pattern]) => pattern.test(message))
  return known === undefined ? { reason: `Redis cannot be reached: ${message}`, lasting: false } : { reason: `${known[1]} (${message})`, lasting: true }
}

/** A command or script that could not reach Redis in time, was refused a place in the queue, or met a Redis that cannot serve now. */
function unavailable(where: string, cause: unknown): StoreUnavailable {
  return new StoreUnavailable(`The store at ${where} did not answer: ${cause instanceof Error ? cause.message : String(cause)}.`)
}

/**
 * The error replies of a Redis that cannot serve for now, by their first word: loading its data,
 * out of memory (`maxmemory` with `noeviction`), a read-only replica, a failed disk write, busy
 * with a script, a cluster or replication that is not ready.
 */
const UNAVAILABLE_REPLIES = /^(LOADING|OOM|READONLY|MISCONF|BUSY|MASTERDOWN|NOREPLICAS|TRYAGAIN|CLUSTERDOWN|NOAUTH|WRONGPASS|NOPERM) /

/** The most commands waiting for Redis at once (sent or not), so that a frozen Redis cannot grow the process. */
export const REDIS_QUEUE_LIMIT = 10_000

/** Options of `connectRedis`. */
export type RedisOptions = {
  /** `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  readonly url: string
  /** The longest a command waits for its answer, in ms; then it fails with `StoreUnavailable`. */
  readonly timeoutMs: number
}

/** The URL with any password replaced by `***`. */
export function redisWhere(url: string): string {
  const parsed = new URL(url)
  if (parsed.password !== '') parsed.password = '***'
  return parsed.toString()
}

/**
 * Each command racing its own deadline. node-redis's own `timeout` ends only the wait to be
 * written, not the wait for the answer: a Redis that hangs (a stopped process, a full disk under
 * appendfsync always) would hold every request. An answer that comes late is read and dropped.
 * Past a deadline Redis is taken as not answering (`stalled`) until an answer of any command comes.
 * An error reply Redis gives when it cannot serve now, and any failure to send, is `StoreUnavailable`
 * (said with `cause`); another error reply is passed on as it is.
 */
function deadlineSender(
  sendCommand: (args: readonly string[]) => Promise<unknown>,
  isReply: (error: unknown) => error is Error,
  where: string,
  timeoutMs: number,
  cause: (error: unknown) => unknown,
): { send(args: readonly string[]): Promise<unknown>; stalled(): boolean } {
  let stalled = false
  const send = (args: readonly string[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stalled = true
        reject(unavailable(where, new Error(`no answer within ${timeoutMs} ms (--store-timeout)`)))
      }, timeoutMs)
      sendCommand(args).then(
        (reply) => {
          clearTimeout(timer)
          stalled = false
          resolve(reply)
        },
        (error: unknown) => {
          clearTimeout(timer)
          if (isReply(error)) stalled = false
          reject(isReply(error) && !UNAVAILABLE_REPLIES.test(error.message) ? error : unavailable(where, cause(error)))
        },
      )
    })
  return { send, stalled: () => stalled }
}

/**
 * Connects to Redis with `@redis/client` (an optional peer dependency: only `serve --store`
 * loads it). A lost connection is tried again every 100 ms up to every second, for ever; in the
 * meantime no command is queued (each fails at once rather than wait).
 */
export async function connectRedis({ url, timeoutMs }: RedisOptions): Promise<RedisConnection> {
  const where = redisWhere(url)
  let client: typeof import('@redis/client')
  try {
    client = await import('@redis/client')
  } catch {
    throw new Error('--store redis://… needs the package @redis/client: npm install @redis/client')
  }
  const redis = client.createClient({
    url,
    disableOfflineQueue: true,
    // Commands waiting for Redis at once, every request together; past it a command fails at once.
    commandsQueueMaxLength: REDIS_QUEUE_LIMIT,
    // No timer of the client's own per command (its default 5 s, an AbortSignal each, ~5% of a
    // replica's time under load): `deadlineSender` holds each to --store-timeout.
    commandOptions: { timeout: 0 },
    socket: { connectTimeout: timeoutMs, reconnectStrategy: (retries: number) => Math.min(100 * (retries + 1), 1000) },
  })
  const listeners: (() => void)[] = []
  // Errors come as events while it reconnects; each command says its own, so none is thrown here.
  // The last one says why commands cannot go out meanwhile.
  let lastProblem: ConnectionProblem | undefined
  redis.on('error', (error: unknown) => {
    lastProblem = problemOf(error instanceof Error ? error.message : String(error))
  })
  redis.on('ready', () => {
    lastProblem = undefined
    for (const listener of listeners) listener()
  })
  // A command refused because the client is not connected says why it is not.
  const cause = (error: unknown): unknown => (!redis.isReady && lastProblem !== undefined ? new Error(lastProblem.reason) : error)
  const isReply = (error: unknown): error is Error => error instanceof client.ErrorReply
  const { send, stalled } = deadlineSender((args) => redis.sendCommand(args), isReply, where, timeoutMs, cause)
  const shas = new Map<string, string>()
  // A first attempt that fails is not fatal: the connection is tried again until Redis answers.
  // It is waited for up to the deadline, so that a Redis that is there is ready for the first command.
  void redis.connect().catch(() => {})
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs)
    redis.once('ready', () => {
      clearTimeout(timer)
      resolve()
    })
  })
  return {
    where,
    command: send,
    async script(source, keys, args) {
      let sha = shas.get(source)
      if (sha === undefined) {
        sha = createHash('sha1').update(source).digest('hex')
        shas.set(source, sha)
      }
      const numbers = [String(keys.length), ...keys, ...args]
      try {
        return await send(['EVALSHA', sha, ...numbers])
      } catch (error) {
        if (!(error instanceof client.ErrorReply) || !error.message.startsWith('NOSCRIPT')) throw error
        return await send(['EVAL', source, ...numbers])
      }
    },
    ready: () => redis.isReady,
    answering: () => redis.isReady && !stalled(),
    problem: () => (redis.isReady ? undefined : lastProblem),
    onReady(listener) {
      listeners.push(listener)
      if (redis.isReady) listener()
    },
    async close() {
      redis.destroy()
    },
  }
}

// Loading one server with autocannon and reading what it cost: requests a second, latency, and the
// server process's CPU time per request from /proc (steadier than requests a second on a shared
// machine). Every answer must be of the expected class, or the run measured something else.
import { existsSync, readFileSync } from "node:fs"
import autocannon from "autocannon"

export interface Measured {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  /** CPU time the server process spent per request (user + system), from /proc. */
  readonly cpuMicroseconds: number | undefined
}

export interface LoadOptions {
  readonly headers?: Record<string, string>
  readonly paths?: ReadonlyArray<string>
  readonly connections?: number
  readonly seconds?: number
  readonly pid?: number | undefined
  /** Every answer must be in this class (2 for 200s, 3 for 304s). */
  readonly statusClass?: 2 | 3
}

/** The run's defaults: BENCH_SECONDS (10) after a 2 s warm-up, BENCH_CONNECTIONS (32). */
export const defaultSeconds = Number(process.env.BENCH_SECONDS ?? 10)
export const defaultConnections = Number(process.env.BENCH_CONNECTIONS ?? 32)

/** User + system CPU time of a process in microseconds (Linux; clock ticks of 10 ms). */
export const cpuTime = (pid: number | undefined): number | undefined => {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

/**
 * Resolves once the process has been quiet for a second (under 5% of a core): a server's work in
 * the background after it starts listening (the catalog's warm-up parses every transcript, several
 * seconds of its event loop on the master snapshot) would otherwise land in the first runs measured,
 * its own or a neighbour's on this 2-core machine. Fails after `timeoutMs` of activity.
 */
export const settled = async (pid: number | undefined, timeoutMs = 180_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  let before = cpuTime(pid)
  if (before === undefined) return
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const now = cpuTime(pid)
    if (now === undefined || now - before < 50_000) return
    if (Date.now() > deadline) throw new Error(`process ${pid} still busy after ${timeoutMs / 1000} s`)
    before = now
  }
}

/** A 2 s warm-up, then one measured run of `url` (or of `paths` on its origin, in turn). */
export const measure = async (url: string, options: LoadOptions = {}): Promise<Measured> => {
  const run = (duration: number) =>
    autocannon({
      url,
      connections: options.connections ?? defaultConnections,
      duration,
      headers: options.headers ?? {},
      ...(options.paths ? { requests: options.paths.map((path) => ({ method: "GET" as const, path })) } : {})
    })
  await run(2)
  const cpuBefore = cpuTime(options.pid)
  const result = await run(options.seconds ?? defaultSeconds)
  const cpuAfter = cpuTime(options.pid)
  const expected = options.statusClass ?? 2
  const inClass = expected === 2 ? result["2xx"] : result["3xx"]
  if (inClass !== result.requests.total || result.errors > 0) {
    throw new Error(
      `${url}: expected only ${expected}xx answers, got ${result["2xx"]} 2xx, ${result["3xx"]} 3xx, ${result["4xx"]} 4xx, ${result["5xx"]} 5xx and ${result.errors} errors of ${result.requests.total}`
    )
  }
  return measuredOf(result, result.requests.average, cpuBefore, cpuAfter)
}

/** A run's figures from autocannon's result and the server's CPU time read around it. */
export const measuredOf = (
  result: autocannon.Result,
  requestsPerSecond: number,
  cpuBefore: number | undefined,
  cpuAfter: number | undefined
): Measured => ({
  requestsPerSecond,
  p50: result.latency.p50,
  p99: result.latency.p99,
  cpuMicroseconds:
    cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : (cpuAfter - cpuBefore) / result.requests.total
})

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** The median of per-round ratios, with their range when there is more than one round. */
export const pairedRatio = (ratios: ReadonlyArray<number>): string =>
  ratios.length === 1
    ? `${(ratios[0] as number).toFixed(2)}×`
    : `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`

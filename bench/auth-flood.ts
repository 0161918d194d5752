// Catalog throughput while sign-ins flood the foundation (issue 14): password hashing (scrypt, ~50 ms
// of a core each) used to run on all four threads of libuv's pool at once, and a flood of sign-ins
// from four clients cut the catalog from 31k to 9.3k requests a second on two cores. Measured in one
// run, on the bundled server as `npm start` runs it, for PASSWORD_HASH_CONCURRENCY=1 (the default,
// which leaves one core to everything else) and =4 (as unbounded as before: libuv's pool size): the
// catalog alone, then the catalog while four flood clients send wrong passwords, in alternation.
// The flood stands for many addresses, so the sign-in rate limits are raised out of its way.
// Uses PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, else the embedded PGlite.
//
//   npm run bench -- auth-flood          (BENCH_SECONDS, default 10; BENCH_ROUNDS, default 2)
import { type ChildProcess, execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import * as Pg from "pg"
import { autocannonScript } from "./_foundation/Harness.js"
import { ensureSnapshot, startCommand, startOurServer } from "./_servers/StartCommand.js"

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
const catalogConnections = 32
const floodClients = 4
const floodConnections = 4
const snapshot = join(tmpdir(), "bench-auth-flood-snapshot")

ensureSnapshot(snapshot)
const manifest = JSON.parse(readFileSync(join(snapshot, "manifest.json"), "utf8"))
const episodePath = `/v1/episodes/${Object.keys(manifest.episodes)[0]}`
const ourCommand = startCommand()

/** A database for one server: a fresh PostgreSQL database, or a fresh embedded one. */
const database = async (): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> => {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!baseUrl) {
    const dir = mkdtempSync(join(tmpdir(), "bench-auth-flood-"))
    return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const name = `auth_flood_${randomBytes(4).toString("hex")}`
  const admin = new Pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  }
}

/** Starts the bundled server and waits until it listens. */
const startServer = (port: number, env: Record<string, string>) =>
  startOurServer(ourCommand, { ...env, PORT: String(port), CATALOG_DIR: snapshot })

interface Flood {
  readonly requests: number
  readonly p99: number
  readonly statuses: Record<string, number>
}

/** One flood client: autocannon in a process of its own, posting wrong passwords for `email`. */
const floodClient = (url: string, email: string, duration: number) =>
  new Promise<Flood>((resolveFlood, reject) => {
    const args = [autocannonScript, "-j", "-c", String(floodConnections)]
    args.push("-d", String(duration), "-m", "POST", "-H", "content-type=application/json")
    args.push(
      "-b",
      JSON.stringify({ email, password: "not the password at all" }),
      `${url}/api/v1/auth/sign-in`
    )
    execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error)
      const result = JSON.parse(stdout)
      resolveFlood({
        requests: result.requests.total,
        p99: result.latency.p99,
        statuses: { "4xx": result["4xx"], "5xx": result["5xx"], "2xx": result["2xx"], errors: result.errors }
      })
    })
  })

interface Measured {
  readonly catalog: number
  readonly catalogP99: number
  readonly flood?: Flood
}

/** Catalog requests a second for `seconds`, every answer checked to be a 200. */
const catalog = async (url: string): Promise<{ requests: number; p99: number }> => {
  const result = await autocannon({
    url: `${url}${episodePath}`,
    connections: catalogConnections,
    duration: seconds
  })
  if (result["2xx"] !== result.requests.total || result.errors > 0) {
    throw new Error(
      `catalog: ${result["2xx"]} of ${result.requests.total} answers were 200, ${result.errors} errors`
    )
  }
  return { requests: result.requests.average, p99: result.latency.p99 }
}

const measure = async (url: string, email: string, withFlood: boolean): Promise<Measured> => {
  if (!withFlood) {
    const alone = await catalog(url)
    return { catalog: alone.requests, catalogP99: alone.p99 }
  }
  // The flood starts first and outlasts the catalog's run, so the whole run is under flood.
  const clients = Array.from({ length: floodClients }, () => floodClient(url, email, seconds + 3))
  await new Promise((resolveWait) => setTimeout(resolveWait, 1500))
  const loaded = await catalog(url)
  const floods = await Promise.all(clients)
  const statuses: Record<string, number> = {}
  for (const flood of floods) {
    for (const [status, count] of Object.entries(flood.statuses))
      statuses[status] = (statuses[status] ?? 0) + count
  }
  return {
    catalog: loaded.requests,
    catalogP99: loaded.p99,
    flood: {
      requests: floods.reduce((sum, flood) => sum + flood.requests, 0) / (seconds + 3),
      p99: Math.max(...floods.map((flood) => flood.p99)),
      statuses
    }
  }
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

interface Instance {
  readonly concurrency: number
  readonly url: string
  readonly email: string
  readonly alone: Array<Measured>
  readonly flooded: Array<Measured>
}

// Both servers run side by side (an idle one costs nothing) and are measured in alternation, so
// each round compares them under the same conditions of a shared machine.
const children: Array<ChildProcess> = []
const databases: Array<{ drop: () => Promise<void> }> = []
const instances: Array<Instance> = []
try {
  for (const concurrency of [1, 4]) {
    const db = await database()
    databases.push(db)
    const port = 18_470 + concurrency
    children.push(
      await startServer(port, {
        ...db.env,
        PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
        CATALOG_RATE_LIMIT: "100000000",
        AUTH_RATE_LIMIT: "1000000",
        AUTH_ADDRESS_RATE_LIMIT: "1000000",
        PASSWORD_HASH_CONCURRENCY: String(concurrency)
      })
    )
    const url = `http://127.0.0.1:${port}`
    const email = `flooded-${concurrency}@example.com`
    const signedUp = await fetch(`${url}/api/v1/auth/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "a bench account password", name: "Flooded" })
    })
    if (signedUp.status !== 200) throw new Error(`sign-up: ${signedUp.status} ${await signedUp.text()}`)
    await autocannon({ url: `${url}${episodePath}`, connections: catalogConnections, duration: 2 })
    instances.push({ concurrency, url, email, alone: [], flooded: [] })
  }
  for (let round = 0; round < rounds; round++) {
    for (const instance of instances) {
      instance.alone.push(await measure(instance.url, instance.email, false))
      instance.flooded.push(await measure(instance.url, instance.email, true))
    }
  }
} finally {
  for (const child of children) child.kill()
  await new Promise((resolveWait) => setTimeout(resolveWait, 500))
  for (const db of databases) await db.drop()
}

const format = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
const rows = instances.map(({ concurrency, alone, flooded }) => {
  const ratios = flooded.map((m, i) => m.catalog / (alone[i] as Measured).catalog)
  const floods = flooded.flatMap((m) => (m.flood ? [m.flood] : []))
  const statuses = floods.map((flood) =>
    Object.entries(flood.statuses)
      .filter(([, count]) => count > 0)
      .map(([status, count]) => `${count} ${status}`)
      .join(", ")
  )
  const name = `${concurrency}${concurrency === 1 ? " (default)" : " (libuv's pool: as before)"}`
  return `| ${name} | ${format(median(alone.map((m) => m.catalog)))} | ${format(median(flooded.map((m) => m.catalog)))} | ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) | ${median(alone.map((m) => m.catalogP99))} / ${median(flooded.map((m) => m.catalogP99))} | ${format(median(floods.map((f) => f.requests)))} | ${median(floods.map((f) => f.p99))} | ${statuses.join("; ")} |`
})

console.log(`
### Catalog throughput under a sign-in flood (${(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) ? "PostgreSQL" : "PGlite"})

Episode detail (\`${episodePath}\`, demo snapshot, fast path) with autocannon, ${catalogConnections} connections, ${seconds} s per run, alone and while ${floodClients} flood clients (autocannon processes of ${floodConnections} connections each) post wrong passwords to \`/api/v1/auth/sign-in\`; ${rounds} rounds, each measuring both servers in turn; medians, the ratio's range in brackets. Every catalog answer was checked to be a 200.

| PASSWORD_HASH_CONCURRENCY | catalog req/s alone | catalog req/s under flood | under flood / alone | catalog p99 ms, alone / under flood | sign-ins answered /s | sign-in p99 ms | sign-in answers |
|---|---|---|---|---|---|---|---|
${rows.join("\n")}
`)

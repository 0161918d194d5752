// Shutting down as a load balancer expects, with a real SIGTERM to the service in a child process:
// readiness fails at once while requests are still served for the drain delay; requests that
// arrived just before the signal, including ones queued behind another on a keep-alive connection,
// all get their answer; then new connections are refused and the process exits 0.
import * as Http from "node:http"
import * as Net from "node:net"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { freshPostgresDatabase, hasPostgres } from "../foundation/support/Backends.js"
import { buildFixtureSnapshot } from "../support/CatalogTestServer.js"
import { childService, serverBundle } from "../support/ChildService.js"
import { embeddedDataDir } from "../support/EmbeddedDataDir.js"

const password = "a long enough passphrase"
const drainDelayMs = 1500

interface Answer {
  readonly status: number
  readonly connection: string | undefined
}

/** One request on a connection of its own. */
const send = (port: number, method: string, path: string, body?: string) =>
  new Promise<Answer>((resolve, reject) => {
    const request = Http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers:
          body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
      },
      (response) => {
        response.resume()
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection })
        )
      }
    )
    request.on("error", reject)
    request.end(body)
  })

/** `count` requests written back to back on one connection; resolves with the statuses answered. */
const pipelined = (port: number, raw: string, count: number) =>
  new Promise<ReadonlyArray<number>>((resolve) => {
    const socket = Net.connect(port, "127.0.0.1", () => socket.write(raw.repeat(count)))
    let text = ""
    const statuses = () => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]))
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1")
      if (statuses().length === count) socket.end()
    })
    socket.on("error", () => {})
    socket.on("close", () => resolve(statuses()))
  })

const signInRequest = (email: string) => {
  const body = JSON.stringify({ email, password })
  return `POST /api/v1/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = Net.connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"))
  })

const database = hasPostgres
  ? Effect.map(freshPostgresDatabase, ({ url }) => ({ DATABASE_URL: url }))
  : Effect.sync(() => ({ DATA_DIR: embeddedDataDir("shutdown-") }))

describe("SIGTERM", () => {
  it.live(
    "fails readiness first, answers every request already received, then refuses connections and exits 0",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const snapshot = yield* buildFixtureSnapshot()
          const service = yield* childService(yield* serverBundle, {
            ...(yield* database),
            CATALOG_DIR: snapshot,
            AUTH_RATE_LIMIT: "1000",
            // Twenty-four sign-ins wait their turn for the password hash: at the default cost, on a
            // loaded 2-core machine, that took 0.5 s each and outran the grace period (CI saw the
            // last queued answers cut). What is tested is the drain, so hashes are cheap and the
            // grace is far beyond the work; an unloaded run is done in about two seconds either way.
            PASSWORD_HASH_COST: "10",
            SHUTDOWN_DRAIN_DELAY_MS: String(drainDelayMs),
            SHUTDOWN_GRACE_MS: "30000"
          })
          const { port } = service
          const email = `shutdown-${process.pid}-${Date.now()}@example.com`
          const signUp = yield* Effect.promise(() =>
            send(port, "POST", "/api/v1/auth/sign-up", JSON.stringify({ email, password, name: "S" }))
          )
          expect(signUp.status).toBe(200)
          const signInBody = JSON.stringify({ email, password })

          // Sixteen sign-ins on connections of their own and four keep-alive connections with two
          // sign-ins queued on each, all sent 30 ms before the signal.
          const alone = Array.from({ length: 16 }, () =>
            send(port, "POST", "/api/v1/auth/sign-in", signInBody)
          )
          const queued = Array.from({ length: 4 }, () => pipelined(port, signInRequest(email), 2))
          yield* Effect.sleep("30 millis")
          service.child.kill("SIGTERM")

          // Draining: not ready, and still serving.
          const readiness = yield* Effect.promise(() => send(port, "GET", "/readyz"))
          expect(readiness.status).toBe(503)
          const liveness = yield* Effect.promise(() => send(port, "GET", "/livez"))
          expect(liveness.status).toBe(200)
          const read = yield* Effect.promise(() => send(port, "GET", "/v1/episodes/1"))
          expect(read.status).toBe(200)

          const answers = yield* Effect.promise(() => Promise.allSettled(alone))
          expect(
            answers.map((answer) => (answer.status === "fulfilled" ? answer.value.status : answer.reason))
          ).toEqual(Array(16).fill(200))
          const queuedAnswers = yield* Effect.promise(() => Promise.all(queued))
          expect(queuedAnswers).toEqual(Array(4).fill([200, 200]))

          // After the drain delay the listener closes, and the process ends cleanly.
          const closedBy = Date.now() + drainDelayMs + 5000
          while (!(yield* Effect.promise(() => refused(port))) && Date.now() < closedBy)
            yield* Effect.sleep("50 millis")
          expect(yield* Effect.promise(() => refused(port))).toBe(true)
          expect(yield* Effect.promise(() => service.exited)).toBe(0)
          expect(service.output()).toContain("Draining: not ready")
        })
      ),
    60_000
  )
})

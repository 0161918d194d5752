// A rolling restart under load through nginx: while clients keep sending catalog and foundation
// requests (reads, a batch, sign-ins), each instance in turn is stopped with SIGTERM and started
// again on its port, and not one request fails. Readiness and the drain (ConnectionDrain.ts) make
// the instance leave quietly; nginx retries a refused connection on the other instance.
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { clusterMissing, serviceCluster } from "../support/ServiceCluster.js"

if (clusterMissing !== undefined) console.log(`Rolling-restart test skipped: ${clusterMissing}`)

const password = "a long enough passphrase"

interface Load {
  readonly stop: () => Promise<{ readonly sent: number; readonly failures: ReadonlyArray<string> }>
}

/** `clients` loops sending a mix of requests through `base` until stopped; every failure is kept. */
const startLoad = (base: string, session: string, email: string, clients: number): Load => {
  let running = true
  let sent = 0
  const failures: Array<string> = []
  const requests: ReadonlyArray<readonly [string, () => Promise<Response>]> = [
    ["GET /v1/episodes", () => fetch(`${base}/v1/episodes?limit=3`)],
    ["GET /v1/episodes/2", () => fetch(`${base}/v1/episodes/2`)],
    ["GET /v1/transcripts/search", () => fetch(`${base}/v1/transcripts/search?q=the&limit=2`)],
    [
      "POST /v1/batch",
      () =>
        fetch(`${base}/v1/batch`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ requests: [{ id: "a", path: "/v1/episodes/1" }] })
        })
    ],
    [
      "GET /api/v1/profile",
      () =>
        fetch(`${base}/api/v1/profile`, { headers: { cookie: `__Secure-service.session_token=${session}` } })
    ],
    [
      "POST /api/v1/auth/sign-in",
      () =>
        fetch(`${base}/api/v1/auth/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password })
        })
    ]
  ]
  const loop = async (client: number) => {
    for (let i = client; running; i++) {
      const [name, send] = requests[i % requests.length] as (typeof requests)[number]
      sent++
      try {
        const response = await send()
        await response.arrayBuffer()
        if (response.status !== 200) failures.push(`${name}: ${response.status}`)
      } catch (error) {
        failures.push(
          `${name}: ${error instanceof Error ? `${error.message} ${String(error.cause)}` : String(error)}`
        )
      }
    }
  }
  const loops = Array.from({ length: clients }, (_, client) => loop(client))
  return {
    stop: async () => {
      running = false
      await Promise.all(loops)
      return { sent, failures }
    }
  }
}

describeNeeding(clusterMissing)("a rolling restart through nginx", () => {
  it.live(
    "under load, each instance stopped with SIGTERM and started again: not one request fails",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const cluster = yield* serviceCluster({
            SHUTDOWN_DRAIN_DELAY_MS: "1000",
            SHUTDOWN_GRACE_MS: "10000",
            AUTH_RATE_LIMIT: "1000000",
            AUTH_ADDRESS_RATE_LIMIT: "1000000",
            CREDENTIAL_RATE_LIMIT: "1000000",
            CATALOG_RATE_LIMIT: "1000000"
          })
          const base = cluster.nginx.url
          const email = `rolling-${process.pid}-${Date.now()}@example.com`
          const signedUp = yield* Effect.promise(() =>
            fetch(`${base}/api/v1/auth/sign-up`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ email, password, name: "Rolling" })
            })
          )
          expect(signedUp.status).toBe(200)
          const session =
            /__Secure-service\.session_token=([^;]+)/.exec(signedUp.headers.get("set-cookie") ?? "")?.[1] ??
            ""

          // The sign-ins are another account's: with the limits raised, one account signing in this
          // often would churn its sessions past MAX_SESSIONS_PER_USER and end the one the reads use.
          const signingIn = `rolling-sign-in-${process.pid}-${Date.now()}@example.com`
          const secondSignUp = yield* Effect.promise(() =>
            fetch(`${base}/api/v1/auth/sign-up`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ email: signingIn, password, name: "Rolling sign-ins" })
            })
          )
          expect(secondSignUp.status).toBe(200)

          const load = startLoad(base, session, signingIn, 8)
          yield* Effect.sleep("1 second")
          const exits: Array<number | string> = []
          for (const [index, instance] of cluster.instances.entries()) {
            exits.push(yield* Effect.promise(() => instance.stop()))
            yield* Effect.promise(() => instance.start())
            // Long enough for nginx to take the instance back (fail_timeout) before the next one
            // leaves; after the last there is no next.
            if (index < cluster.instances.length - 1) yield* Effect.sleep("2500 millis")
          }
          const { sent, failures } = yield* Effect.promise(() => load.stop())
          expect(exits).toEqual([0, 0])
          expect(failures, cluster.nginx.errorLog()).toEqual([])
          expect(sent).toBeGreaterThan(200)
          // Both restarted instances answer.
          for (const instance of cluster.instances) {
            const ready = yield* Effect.promise(() => fetch(`http://127.0.0.1:${instance.port}/readyz`))
            expect(ready.status).toBe(200)
          }
        })
      ),
    180_000
  )
})

// Liveness and readiness for orchestrators: `/livez` answers while the process runs, `/readyz` says
// whether the instance should take traffic (its database answers, its snapshot is loaded); neither
// is ever rate limited, and only GET and HEAD are allowed. Readiness fails while PostgreSQL is
// stopped and recovers when it is back; liveness does not fail. (Readiness during shutdown is
// tested with a real SIGTERM in shutdown.test.ts.)
import { describe, expect, it, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { pgCtlUnavailable, postgresUnavailable } from "../foundation/support/Backends.js"
import { postgresCluster } from "../foundation/support/PostgresCluster.js"
import { buildFixtureSnapshot } from "../support/CatalogTestServer.js"
import { embeddedDataDir } from "../support/EmbeddedDataDir.js"
import { describeNeeding } from "../support/Needs.js"
import { request, testServer } from "../support/TestServer.js"

const Service = Layer.unwrapEffect(
  Effect.map(buildFixtureSnapshot(), (directory) =>
    testServer({ CATALOG_DIR: directory, DATA_DIR: embeddedDataDir("probes-"), CATALOG_RATE_LIMIT: "2" })
  )
).pipe(Layer.orDie)

describe("the probes of a service with both features", () => {
  it.layer(Service, { timeout: 120_000 })((it) => {
    it.effect("/livez and /readyz answer 200, uncached, never rate limited", () =>
      Effect.gen(function* () {
        for (let i = 0; i < 20; i++) {
          const live = yield* request("/livez")
          expect(live.status).toBe(200)
          expect(live.json).toEqual({ status: "ok" })
          expect(live.headers.get("cache-control")).toBe("no-store")
          const ready = yield* request("/readyz")
          expect(ready.status).toBe(200)
          expect(ready.json).toEqual({ status: "ready", checks: { database: "ok", snapshot: "ok" } })
        }
        const head = yield* request("/readyz", { method: "HEAD" })
        expect(head.status).toBe(200)
        expect(head.text).toBe("")
      })
    )

    it.effect("other methods are 405 with Allow", () =>
      Effect.gen(function* () {
        for (const path of ["/livez", "/readyz"]) {
          const answer = yield* request(path, { method: "POST" })
          expect(answer.status).toBe(405)
          expect(answer.headers.get("allow")).toBe("GET, HEAD")
          expect(answer.json).toMatchObject({ defined: true, code: "METHOD_NOT_ALLOWED" })
        }
      })
    )
  })
})

class Cluster extends Context.Tag("Cluster")<Cluster, Effect.Effect.Success<typeof postgresCluster>>() {}

/** Polls `path` until its status is `status`, for at most `seconds`. */
const statusBecomes = (path: string, status: number, seconds = 20) =>
  Effect.gen(function* () {
    const deadline = Date.now() + seconds * 1000
    let last = yield* request(path)
    while (last.status !== status && Date.now() < deadline) {
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
      last = yield* request(path)
    }
    return last
  })

describeNeeding(postgresUnavailable, pgCtlUnavailable)("readiness and a PostgreSQL outage", () => {
  const withCluster = Layer.unwrapScoped(
    Effect.map(postgresCluster, (cluster) =>
      testServer({
        CATALOG_ENABLED: "false",
        DATABASE_URL: cluster.url,
        DATABASE_CONNECT_TIMEOUT_MS: "500"
      }).pipe(Layer.merge(Layer.succeed(Cluster, cluster)))
    )
  )

  layer(withCluster, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("readiness fails, naming the database, while it is stopped; liveness never does", () =>
      Effect.gen(function* () {
        const cluster = yield* Cluster
        expect((yield* request("/readyz")).json).toEqual({ status: "ready", checks: { database: "ok" } })

        yield* cluster.stop
        const down = yield* statusBecomes("/readyz", 503)
        expect(down.status).toBe(503)
        expect(down.json).toEqual({
          defined: true,
          code: "SERVICE_UNAVAILABLE",
          status: 503,
          message: "Not ready: database: the database does not answer.",
          data: { checks: { database: "the database does not answer" } }
        })
        expect(Number(down.headers.get("retry-after"))).toBeGreaterThan(0)
        expect((yield* request("/livez")).status).toBe(200)

        yield* cluster.start
        expect((yield* statusBecomes("/readyz", 200)).status).toBe(200)
      })
    )
  })
})

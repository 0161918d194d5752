// Scale-out, proven: two instances of the service (real processes) on one PostgreSQL behind nginx,
// round robin. Migrations run once although both start together; nginx spreads requests over both;
// a session made on one instance works on the other; rate limits are shared; of 50 concurrent
// PATCHes with one version across both, exactly one wins; the outbox delivers each message once;
// catalog answers, ETags and cursors are identical from either instance, so a cache in front can
// revalidate against any of them.
import { expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { withClient } from "../foundation/support/Backends.js"
import { inOneWindow } from "../foundation/support/RateWindows.js"
import { describeNeeding } from "../support/Needs.js"
import { clusterMissing, type ServiceCluster, serviceCluster } from "../support/ServiceCluster.js"

if (clusterMissing !== undefined) console.log(`Scale-out tests skipped: ${clusterMissing}`)

class Cluster extends Context.Tag("Cluster")<Cluster, ServiceCluster>() {}

const COOKIE = "__Secure-service.session_token"

interface Answer {
  readonly status: number
  readonly etag: string | null
  readonly text: string
  readonly json: unknown
  readonly setCookie: string | null
}

const send = (url: string, init: RequestInit = {}) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(url, init)
    const text = await response.text()
    let json: unknown
    try {
      json = text === "" ? undefined : JSON.parse(text)
    } catch {
      json = undefined
    }
    return {
      status: response.status,
      etag: response.headers.get("etag"),
      text,
      json,
      setCookie: response.headers.get("set-cookie")
    }
  })

/** The base URLs of instance 1, instance 2 and nginx. */
const bases = Effect.map(Cluster, (cluster) => ({
  one: `http://127.0.0.1:${cluster.instances[0]?.port}`,
  two: `http://127.0.0.1:${cluster.instances[1]?.port}`,
  nginx: cluster.nginx.url,
  origin: cluster.nginx.url
}))

const foundation = (
  base: string,
  path: string,
  options: { method?: string; body?: unknown; session?: string; origin?: string } = {}
) =>
  send(`${base}/api/v1${path}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers: {
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.session === undefined ? {} : { cookie: `${COOKIE}=${options.session}` }),
      ...(options.origin === undefined ? {} : { origin: options.origin })
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })

const sessionOf = (answer: Answer) => new RegExp(`${COOKIE}=([^;]+)`).exec(answer.setCookie ?? "")?.[1] ?? ""

let emails = 0
const email = (label: string) => `${label}-${process.pid}-${Date.now()}-${emails++}@example.com`
const password = "a long enough passphrase"

const outputs = Effect.map(Cluster, (cluster) =>
  cluster.instances.map((instance) => instance.current().output())
)

describeNeeding(clusterMissing)("two instances behind nginx", () => {
  layer(
    Layer.scoped(
      Cluster,
      // Many sign-ups come from this one address: its cross-email limit is not what is tested here.
      serviceCluster({
        ACCESS_LOG: "true",
        AUTH_RATE_LIMIT: "10",
        AUTH_ADDRESS_RATE_LIMIT: "1000000",
        OUTBOX_POLL_MS: "100"
      })
    ),
    {
      timeout: 180_000,
      excludeTestServices: true
    }
  )((it) => {
    it.effect("migrations ran once although both instances started together", () =>
      Effect.gen(function* () {
        const cluster = yield* Cluster
        const migrated = (yield* outputs).map(
          (output) => output.split("\n").filter((line) => line.includes("Database migrated")).length
        )
        expect(migrated.reduce((a, b) => a + b, 0)).toBe(1)
        const rows = yield* withClient(cluster.databaseUrl, async (client) =>
          (await client.query("SELECT migration_id FROM effect_sql_migrations")).rows.map((row) =>
            Number(row.migration_id)
          )
        )
        expect(rows.length).toBeGreaterThan(0)
        expect(new Set(rows).size).toBe(rows.length)
      })
    )

    it.effect("nginx sends requests to both instances in turn", () =>
      Effect.gen(function* () {
        const { nginx } = yield* bases
        for (let i = 0; i < 20; i++)
          expect((yield* send(`${nginx}/v1/episodes/${i % 2 === 0 ? 1 : 2}`)).status).toBe(200)
        // An access-log line is written after its answer is sent: wait until all twenty have reached the pipe.
        const countsNow = Effect.map(outputs, (all) =>
          all.map(
            (output) => output.split("\n").filter((line) => /^GET \/v1\/episodes\/[12] 200/.test(line)).length
          )
        )
        let counts = yield* countsNow
        for (let waited = 0; (counts[0] ?? 0) + (counts[1] ?? 0) < 20 && waited < 40; waited++) {
          yield* Effect.sleep("50 millis")
          counts = yield* countsNow
        }
        expect(counts).toEqual([10, 10])
      })
    )

    it.effect("a session made on one instance works on the other", () =>
      Effect.gen(function* () {
        const { one, two, origin } = yield* bases
        const address = email("session")
        const signedUp = yield* foundation(one, "/auth/sign-up", {
          body: { email: address, password, name: "Both" }
        })
        expect(signedUp.status).toBe(200)
        const session = sessionOf(signedUp)
        const profile = yield* foundation(two, "/profile", { session })
        expect(profile.status).toBe(200)
        expect(profile.json).toMatchObject({ email: address })
        const signedOut = yield* foundation(two, "/auth/sign-out", { method: "POST", session, origin })
        expect(signedOut.status).toBe(200)
        expect((yield* foundation(one, "/profile", { session })).status).toBe(401)
      })
    )

    it.effect(
      "the sign-in rate limit is shared: the 11th attempt, on either instance, is 429",
      () =>
        Effect.gen(function* () {
          const { one, two } = yield* bases
          // The count restarts at a minute's edge: the burst is judged only when it lies in one window
          // (a run that crossed one runs again, with an address of its own).
          yield* inOneWindow(() =>
            Effect.gen(function* () {
              const address = email("limited")
              expect(
                (yield* foundation(one, "/auth/sign-up", { body: { email: address, password, name: "L" } }))
                  .status
              ).toBe(200)
              // The sign-up was the first attempt of ten.
              for (let i = 0; i < 9; i++) {
                const attempt = yield* foundation(i % 2 === 0 ? two : one, "/auth/sign-in", {
                  body: { email: address, password: "not the password" }
                })
                expect(attempt.status, `attempt ${i + 2}`).toBe(401)
              }
              for (const base of [one, two]) {
                const refused = yield* foundation(base, "/auth/sign-in", {
                  body: { email: address, password }
                })
                expect(refused.status).toBe(429)
              }
            })
          )
        }),
      // Room for a second run should the first cross a window's edge.
      120_000
    )

    it.effect("of 50 concurrent PATCHes with one version across both instances, exactly one wins", () =>
      Effect.gen(function* () {
        const { one, two, origin } = yield* bases
        const owner = sessionOf(
          yield* foundation(one, "/auth/sign-up", { body: { email: email("owner"), password, name: "O" } })
        )
        const created = yield* foundation(one, "/organizations", {
          body: { name: "Racing" },
          session: owner,
          origin
        })
        expect(created.status).toBe(200)
        const { id } = created.json as { id: string }
        const answers = yield* Effect.all(
          Array.from({ length: 50 }, (_, i) =>
            foundation(i % 2 === 0 ? one : two, `/organizations/${id}`, {
              method: "PATCH",
              body: { version: 1, name: `Writer ${i}` },
              session: owner,
              origin
            })
          ),
          { concurrency: "unbounded" }
        )
        const statuses = answers.map((answer) => answer.status)
        expect(statuses.filter((status) => status === 200)).toHaveLength(1)
        expect(statuses.filter((status) => status === 409)).toHaveLength(49)
        const after = yield* foundation(two, `/organizations/${id}`, { session: owner })
        expect(after.json).toMatchObject({ version: 2 })
      })
    )

    it.effect("the outbox delivers each message once, whichever instance's worker takes it", () =>
      Effect.gen(function* () {
        const { nginx } = yield* bases
        const addresses = Array.from({ length: 20 }, () => email("outbox"))
        yield* Effect.all(
          addresses.map((address) =>
            foundation(nginx, "/auth/sign-up", { body: { email: address, password, name: "M" } })
          ),
          { concurrency: 10 }
        )
        const deliveries = (address: string) =>
          Effect.map(outputs, (all) =>
            all.map(
              (output) =>
                output
                  .split("\n")
                  .filter((line) => line.includes(`Outbox verify-email`) && line.includes(` to ${address}: `))
                  .length
            )
          )
        for (let wait = 0; wait < 100; wait++) {
          const counts = yield* Effect.all(addresses.map(deliveries))
          if (counts.every((perInstance) => perInstance.reduce((a, b) => a + b, 0) >= 1)) break
          yield* Effect.sleep("100 millis")
        }
        yield* Effect.sleep("500 millis")
        const counts = yield* Effect.all(addresses.map(deliveries))
        for (const [index, perInstance] of counts.entries()) {
          expect(
            perInstance.reduce((a, b) => a + b, 0),
            addresses[index]
          ).toBe(1)
        }
      })
    )

    it.effect("catalog answers, ETags and cursors are the same from either instance and through nginx", () =>
      Effect.gen(function* () {
        const { one, two, nginx } = yield* bases
        for (const path of [
          "/v1/episodes?limit=2",
          "/v1/episodes/1",
          "/v1/episodes?q=tide&limit=1",
          "/v1/transcripts/search?q=the&limit=2",
          "/v1/snapshot",
          "/health",
          "/openapi.json"
        ]) {
          const [a, b, c] = [
            yield* send(`${one}${path}`),
            yield* send(`${two}${path}`),
            yield* send(`${nginx}${path}`)
          ]
          expect(a.status, path).toBe(200)
          expect(b.text, path).toBe(a.text)
          expect(c.text, path).toBe(a.text)
          expect(b.etag, path).toBe(a.etag)
          expect(c.etag, path).toBe(a.etag)
          // A cache holding instance 1's answer revalidates against instance 2.
          const revalidated = yield* send(`${two}${path}`, { headers: { "if-none-match": a.etag ?? "" } })
          expect(revalidated.status, path).toBe(304)
        }
        // A cursor made by one instance pages on the other exactly as on itself.
        const first = (yield* send(`${one}/v1/episodes?limit=2`)).json as { nextCursor: string }
        const next = `/v1/episodes?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`
        const onTwo = yield* send(`${two}${next}`)
        expect(onTwo.status).toBe(200)
        expect(onTwo.text).toBe((yield* send(`${one}${next}`)).text)
      })
    )
  })
})

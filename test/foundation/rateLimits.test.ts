// Rate limits (extensions §7): sign-in and sign-up attempts per client address and email, and
// requests per credential, with 429 and Retry-After; counters live in the database, so several
// instances share them.
import { expect, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { layerDatabase } from "../../src/foundation/Database/Database.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { batchFor, RateLimiter } from "../../src/foundation/Security/RateLimiter.js"
import type { ServerAddress } from "../../src/http/NodeServer.js"
import { describeNeeding } from "../support/Needs.js"
import { backends, freshPostgresDatabase, postgresUnavailable, withClient } from "./support/Backends.js"
import {
  call,
  foundationServer,
  postgresFoundationServer,
  signUp,
  TestDatabaseUrl,
  uniqueEmail
} from "./support/FoundationClient.js"
import { inOneWindow } from "./support/RateWindows.js"

const expectTooManyRequests = (response: { status: number; headers: Headers; json: unknown }) => {
  expect(response.status).toBe(429)
  expect(response.json).toEqual({
    defined: true,
    code: "TOO_MANY_REQUESTS",
    status: 429,
    message: "Wait before trying again."
  })
  const retryAfter = Number(response.headers.get("retry-after"))
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
}

for (const backend of backends) {
  describeNeeding(backend.missing)(`rate limits on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { CREDENTIAL_RATE_LIMIT: "20" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect("the 11th attempt in a minute for one address and email is 429 with Retry-After", () =>
        inOneWindow(() =>
          Effect.gen(function* () {
            // The sign-up is the first attempt: sign-up and sign-in share one counter.
            const account = yield* signUp("limited")
            for (let attempt = 2; attempt <= 10; attempt++) {
              const response = yield* call("/auth/sign-in", {
                body: { email: account.email, password: "wrong password" }
              })
              expect(response.status, `attempt ${attempt}`).toBe(401)
            }
            // Even the right password is refused now: the limit counts attempts, not failures.
            const limited = yield* call("/auth/sign-in", {
              body: { email: account.email, password: account.password }
            })
            expectTooManyRequests(limited)
            // Another email from the same address is counted apart.
            const other = yield* call("/auth/sign-in", {
              body: { email: uniqueEmail(), password: "whatever pass" }
            })
            expect(other.status).toBe(401)
          })
        )
      )

      it.effect("sign-up attempts are limited the same way", () =>
        inOneWindow(() =>
          Effect.gen(function* () {
            const email = uniqueEmail("signup-limit")
            const first = yield* call("/auth/sign-up", {
              body: { email, password: "long enough password", name: "A" }
            })
            expect(first.status).toBe(200)
            for (let attempt = 2; attempt <= 10; attempt++) {
              const response = yield* call("/auth/sign-up", {
                body: { email, password: "long enough password", name: "A" }
              })
              expect(response.status).toBe(409)
            }
            expectTooManyRequests(
              yield* call("/auth/sign-up", { body: { email, password: "long enough password", name: "A" } })
            )
          })
        )
      )

      it.effect("a credential is limited to its configured requests a minute; others are not affected", () =>
        inOneWindow(() =>
          Effect.gen(function* () {
            const busy = yield* signUp("busy")
            const calm = yield* signUp("calm")
            for (let i = 1; i <= 20; i++) {
              expect((yield* call("/credential-context", { session: busy.session })).status).toBe(200)
            }
            expectTooManyRequests(yield* call("/credential-context", { session: busy.session }))
            expect((yield* call("/credential-context", { session: calm.session })).status).toBe(200)
          })
        )
      )
    })
  })
}

class SecondInstance extends Context.Tag("SecondInstance")<
  SecondInstance,
  Context.Context<ServerAddress>
>() {}

describeNeeding(postgresUnavailable)("rate limits across instances", () => {
  const twoInstances = Layer.unwrapScoped(
    Effect.gen(function* () {
      const url = yield* TestDatabaseUrl
      const second = yield* Layer.build(
        foundationServer(Effect.succeed({ DATABASE_URL: url }), { CREDENTIAL_RATE_LIMIT: "10" })
      )
      return Layer.succeed(SecondInstance, second)
    })
  ).pipe(Layer.provideMerge(postgresFoundationServer({ CREDENTIAL_RATE_LIMIT: "10" })))

  layer(twoInstances, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("two instances on one database share the counters", () =>
      Effect.gen(function* () {
        const second = yield* SecondInstance
        yield* inOneWindow(() =>
          Effect.gen(function* () {
            const account = yield* signUp("shared")
            for (let i = 1; i <= 10; i++) {
              const response =
                i % 2 === 0
                  ? yield* call("/credential-context", { session: account.session }).pipe(
                      Effect.provide(second)
                    )
                  : yield* call("/credential-context", { session: account.session })
              expect(response.status, `request ${i}`).toBe(200)
            }
            expectTooManyRequests(
              yield* call("/credential-context", { session: account.session }).pipe(Effect.provide(second))
            )
            expectTooManyRequests(yield* call("/credential-context", { session: account.session }))
          })
        )
      })
    )
  })
})

class OtherLimiter extends Context.Tag("OtherLimiter")<OtherLimiter, RateLimiter>() {}

/** A limiter with its own database pool on `url`, as one instance of the service would have. */
const limiterOn = (url: string) =>
  RateLimiter.Default.pipe(
    Layer.provide(layerDatabase),
    Layer.provide(FoundationConfig.layer("http://127.0.0.1:0")),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATABASE_URL", url]]))))
  )

class LimiterDatabase extends Context.Tag("LimiterDatabase")<LimiterDatabase, string>() {}

describeNeeding(postgresUnavailable)("large limits counted in batches", () => {
  const twoLimiters = Layer.unwrapScoped(
    Effect.gen(function* () {
      const { url } = yield* freshPostgresDatabase
      const other = yield* Layer.build(limiterOn(url))
      return Layer.mergeAll(
        limiterOn(url),
        Layer.succeed(OtherLimiter, Context.get(other, RateLimiter)),
        Layer.succeed(LimiterDatabase, url)
      )
    })
  )

  layer(twoLimiters, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("one instance admits exactly the limit, then 429 with the time left in the window", () =>
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        yield* inOneWindow((run) =>
          Effect.gen(function* () {
            const key = `batch:alone:${run}`
            const limit = 1000
            for (let i = 1; i <= limit; i++) yield* limiter.consume(key, limit)
            const refused = yield* Effect.either(limiter.consume(key, limit))
            expect(Either.isLeft(refused) && refused.left._tag).toBe("RateLimited")
            if (Either.isLeft(refused) && refused.left._tag === "RateLimited") {
              expect(refused.left.retryAfterSeconds).toBeGreaterThanOrEqual(1)
              expect(refused.left.retryAfterSeconds).toBeLessThanOrEqual(60)
            }
          })
        )
      })
    )

    it.effect(
      "two instances admit at most one batch beyond the limit, and write what they counted within a slice",
      () =>
        Effect.gen(function* () {
          const limiters = [yield* RateLimiter, yield* OtherLimiter]
          const url = yield* LimiterDatabase
          yield* inOneWindow((run) =>
            Effect.gen(function* () {
              const key = `batch:shared:${run}`
              const limit = 1000
              let admitted = 0
              let refusedBoth = false
              for (let i = 0; !refusedBoth && i < 3 * limit; i += 2) {
                const results = yield* Effect.forEach(limiters, (limiter) =>
                  Effect.either(limiter.consume(key, limit))
                )
                admitted += results.filter(Either.isRight).length
                refusedBoth = results.every(Either.isLeft)
              }
              expect(refusedBoth).toBe(true)
              expect(admitted).toBeGreaterThanOrEqual(limit)
              expect(admitted).toBeLessThanOrEqual(limit + batchFor(limit))
              // Every admitted event reaches the shared row within a flush slice (250 ms): the row is read
              // until it holds them, for at most 600 ms.
              const storedCount = withClient(url, (client) =>
                client.query<{ count: number }>("SELECT count FROM rate_limit_counters WHERE key = $1", [key])
              ).pipe(Effect.map((stored) => stored.rows[0]?.count ?? 0))
              const deadline = Date.now() + 600
              let stored = yield* storedCount
              while (stored < admitted && Date.now() < deadline) {
                yield* Effect.sleep("25 millis")
                stored = yield* storedCount
              }
              expect(stored).toBeGreaterThanOrEqual(admitted)
            })
          )
        })
    )
  })
})

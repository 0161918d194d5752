// Sign-in and sign-up under attack (issue 14): one address is limited across emails as well as per
// email, behind a proxy the foundation counts the address the proxy saw (TRUST_PROXY, the same rule
// as the catalog's), and password hashing is bounded: beyond the checks that may wait, 503 with
// Retry-After instead of a queue without end. Counters live in the database, so instances share them.
import { expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ServerAddress } from "../../src/http/NodeServer.js"
import { describeNeeding } from "../support/Needs.js"
import { backends, postgresUnavailable } from "./support/Backends.js"
import {
  call,
  foundationServer,
  isEnvelope,
  postgresFoundationServer,
  signUp,
  TestDatabaseUrl,
  uniqueEmail
} from "./support/FoundationClient.js"
import { inOneWindow, inOneWindowSameKeys } from "./support/RateWindows.js"

const addressMessage = "Too many sign-in and sign-up attempts from your address; wait before trying again."

const expectTooManyRequests = (
  response: { status: number; headers: Headers; json: unknown; text: string },
  message: string
) => {
  expect(response.status, response.text).toBe(429)
  expect(response.json).toEqual({ defined: true, code: "TOO_MANY_REQUESTS", status: 429, message })
  const retryAfter = Number(response.headers.get("retry-after"))
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
}

/** A sign-in from `address` (as a proxy in front of the service reports it). */
const signInFrom = (address: string | undefined, email: string, password = "not the password") =>
  call("/auth/sign-in", {
    body: { email, password },
    headers: address === undefined ? {} : { "x-forwarded-for": address }
  })

const signUpFrom = (address: string | undefined, email: string) =>
  call("/auth/sign-up", {
    body: { email, password: "long enough password", name: "Limited" },
    headers: address === undefined ? {} : { "x-forwarded-for": address }
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`sign-in limits behind a proxy on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { TRUST_PROXY: "true", AUTH_ADDRESS_RATE_LIMIT: "30" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect(
        "the 31st attempt in a minute from one address is 429 whatever the emails; others go on",
        () =>
          // Each run from an address of its own: the count is per address.
          inOneWindow((run) =>
            Effect.gen(function* () {
              const address = `203.0.113.${run}`
              // Sign-ups and sign-ins share the count: 10 new accounts, then 20 sign-ins to other emails.
              for (let i = 1; i <= 10; i++) {
                const response = yield* signUpFrom(address, uniqueEmail(`spray-up-${i}`))
                expect(response.status, `sign-up ${i}: ${response.text}`).toBe(200)
              }
              for (let i = 11; i <= 30; i++) {
                const response = yield* signInFrom(address, uniqueEmail(`spray-${i}`))
                expect(response.status, `attempt ${i}: ${response.text}`).toBe(401)
              }
              expectTooManyRequests(yield* signInFrom(address, uniqueEmail("spray-31")), addressMessage)
              expectTooManyRequests(
                yield* signUpFrom(address, uniqueEmail("spray-account-11")),
                addressMessage
              )
              // Entries the client wrote itself in front of the proxy's do not make it someone else.
              expectTooManyRequests(
                yield* signInFrom(`198.51.100.1, ${address}`, uniqueEmail("spray-forged")),
                addressMessage
              )
              // Another address is counted apart.
              expect((yield* signInFrom(`203.0.113.${100 + run}`, uniqueEmail("elsewhere"))).status).toBe(401)
            })
          ),
        // Thirty-odd password hashes, one at a time: half a minute on a loaded machine, and a second
        // run should the first cross a window's edge.
        120_000
      )

      it.effect(
        "ten bad attempts lock an email for the address that made them, not for everyone",
        () =>
          inOneWindow((run) =>
            Effect.gen(function* () {
              const victim = yield* signUp("victim")
              const attacker = `192.0.2.${100 + run}`
              for (let attempt = 1; attempt <= 10; attempt++) {
                expect((yield* signInFrom(attacker, victim.email)).status, `attempt ${attempt}`).toBe(401)
              }
              expectTooManyRequests(
                yield* signInFrom(attacker, victim.email, victim.password),
                "Wait before trying again."
              )
              // The victim, behind the same proxy at another address, still signs in.
              const own = yield* signInFrom(`192.0.2.${10 + run}`, victim.email, victim.password)
              expect(own.status, own.text).toBe(200)
            })
          ),
        // A dozen password hashes, up to 20 s on a loaded machine, and a second run should the first
        // cross a window's edge.
        90_000
      )
    })
  })

  describeNeeding(backend.missing)(`sign-in limits without a trusted proxy on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { AUTH_ADDRESS_RATE_LIMIT: "5" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect(
        "X-Forwarded-For is ignored: a client cannot pick a new address per attempt",
        () =>
          // Counted under the test's own (loopback) address, which cannot change from run to run.
          inOneWindowSameKeys(
            Effect.gen(function* () {
              for (let i = 1; i <= 5; i++) {
                expect((yield* signInFrom(`203.0.113.${i}`, uniqueEmail(`hop-${i}`))).status).toBe(401)
              }
              expectTooManyRequests(yield* signInFrom("203.0.113.99", uniqueEmail("hop-6")), addressMessage)
            }),
            10_000
          ),
        // Time for a wait of up to a minute, should the burst cross a window's edge.
        120_000
      )
    })
  })

  describeNeeding(backend.missing)(`password hashing under a flood on ${backend.name}`, () => {
    layer(
      foundationServer(backend.database, {
        AUTH_RATE_LIMIT: "100000",
        PASSWORD_HASH_CONCURRENCY: "1",
        PASSWORD_HASH_QUEUE: "1",
        // The production cost (the test servers' 2^10 takes ~4 ms a hash): the flood must find a
        // hash running and one waiting, which a hash shorter than the requests' arrival cannot promise.
        PASSWORD_HASH_COST: "15"
      }),
      { timeout: 120_000, excludeTestServices: true }
    )((it) => {
      it.effect(
        "sign-ins beyond the checks that may wait are 503 with Retry-After; the rest are answered",
        () =>
          Effect.gen(function* () {
            const account = yield* signUp("flooded")
            const responses = yield* Effect.all(
              Array.from({ length: 24 }, (_, i) => signInFrom(undefined, uniqueEmail(`flood-${i}`))),
              { concurrency: "unbounded" }
            )
            const statuses = responses.map((response) => response.status)
            expect(
              statuses.every((status) => status === 401 || status === 503),
              statuses.join(" ")
            ).toBe(true)
            // One hash runs and one waits, so at least two were checked; the others were not kept waiting.
            expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(2)
            const busy = responses.filter((response) => response.status === 503)
            expect(busy.length).toBeGreaterThanOrEqual(1)
            for (const response of busy) {
              expect(isEnvelope(response.json, 503), response.text).toBe(true)
              expect((response.json as { message: string }).message).toBe(
                "Too many passwords are being checked right now; try again in a moment."
              )
              expect(response.headers.get("retry-after")).toBe("1")
            }
            // Once the flood has passed, a sign-in is checked as usual.
            const after = yield* signInFrom(undefined, account.email, account.password)
            expect(after.status, after.text).toBe(200)
          })
      )
    })
  })
}

class SecondInstance extends Context.Tag("SecondInstance")<
  SecondInstance,
  Context.Context<ServerAddress>
>() {}

describeNeeding(postgresUnavailable)("the per-address limit across instances", () => {
  const settings = { TRUST_PROXY: "true", AUTH_ADDRESS_RATE_LIMIT: "6" }
  const twoInstances = Layer.unwrapScoped(
    Effect.gen(function* () {
      const url = yield* TestDatabaseUrl
      const second = yield* Layer.build(foundationServer(Effect.succeed({ DATABASE_URL: url }), settings))
      return Layer.succeed(SecondInstance, second)
    })
  ).pipe(Layer.provideMerge(postgresFoundationServer(settings)))

  layer(twoInstances, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("two instances on one database count one address together", () =>
      Effect.gen(function* () {
        const second = yield* SecondInstance
        yield* inOneWindow((run) =>
          Effect.gen(function* () {
            const address = `203.0.113.${50 + run}`
            for (let i = 1; i <= 6; i++) {
              const attempt = signInFrom(address, uniqueEmail(`shared-${i}`))
              const response = i % 2 === 0 ? yield* attempt.pipe(Effect.provide(second)) : yield* attempt
              expect(response.status, `attempt ${i}`).toBe(401)
            }
            expectTooManyRequests(yield* signInFrom(address, uniqueEmail("shared-7")), addressMessage)
            expectTooManyRequests(
              yield* signInFrom(address, uniqueEmail("shared-8")).pipe(Effect.provide(second)),
              addressMessage
            )
          })
        )
      })
    )
  })
})

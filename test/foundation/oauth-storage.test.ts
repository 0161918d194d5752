// The authorization server when its storage cannot answer (extensions §8): every such failure is
// DatabaseUnavailable (503 `temporarily_unavailable` with Retry-After at the endpoints), never
// invalid_client, which a client takes as final. Client authentication is the path that got it wrong:
// here it meets a real pool with its one connection held, on PGlite and on PostgreSQL; the endpoints
// meet a stopped and a locked PostgreSQL in database.test.ts.
import * as SqlClient from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import { layerDatabase } from "../../src/foundation/Database/Database.js"
import { FoundationConfig } from "../../src/foundation/FoundationConfig.js"
import { ClientMetadataFetch } from "../../src/foundation/OAuth/ClientMetadataFetch.js"
import { ClientRepo } from "../../src/foundation/OAuth/ClientRepo.js"
import { Clients } from "../../src/foundation/OAuth/Clients.js"
import { RateLimiter } from "../../src/foundation/Security/RateLimiter.js"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"

/** Client authentication on a database of its own whose pool has one connection and waits 300 ms for it. */
const clientsOn = (env: Record<string, string>) =>
  Clients.Default.pipe(
    Layer.provideMerge(Layer.mergeAll(ClientRepo.Default, ClientMetadataFetch.Default, RateLimiter.Default)),
    Layer.provideMerge(layerDatabase),
    Layer.provideMerge(FoundationConfig.layer("http://127.0.0.1:0")),
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(
          new Map(Object.entries({ ...env, DATABASE_POOL_SIZE: "1", DATABASE_CONNECT_TIMEOUT_MS: "300" }))
        )
      )
    )
  )

/** Runs `body` while another transaction holds the pool's only connection. */
const whileStorageIsBusy = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const holding = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    const holder = yield* Effect.fork(
      sql.withTransaction(
        Effect.zipRight(
          sql`SELECT 1`,
          Effect.zipRight(Deferred.succeed(holding, undefined), Deferred.await(release))
        )
      )
    )
    yield* Deferred.await(holding)
    const result = yield* Effect.either(body)
    yield* Deferred.succeed(release, undefined)
    yield* Fiber.join(holder)
    return result
  })

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`

for (const backend of backends) {
  describeNeeding(backend.missing)(
    `client authentication when storage cannot answer, on ${backend.name}`,
    () => {
      it.live(
        "is DatabaseUnavailable for Basic and for a public client, and authenticates once storage is back",
        () =>
          Effect.scoped(
            Effect.flatMap(backend.database, (env) =>
              Effect.gen(function* () {
                const clients = yield* Clients
                const confidential = yield* clients.register({
                  redirect_uris: ["https://app.example/callback"],
                  token_endpoint_auth_method: "client_secret_basic"
                })
                const secret = confidential.client_secret ?? ""
                const publicClient = yield* clients.register({
                  redirect_uris: ["https://app.example/callback"],
                  token_endpoint_auth_method: "none"
                })

                const busyBasic = yield* whileStorageIsBusy(
                  clients.authenticate(basic(confidential.client_id, secret), undefined, "127.0.0.1")
                )
                expect(busyBasic._tag === "Left" && busyBasic.left._tag).toBe("DatabaseUnavailable")
                const busyPublic = yield* whileStorageIsBusy(
                  clients.authenticate(undefined, publicClient.client_id, "127.0.0.1")
                )
                expect(busyPublic._tag === "Left" && busyPublic.left._tag).toBe("DatabaseUnavailable")

                // The same calls with storage answering: the clients are who they say, a wrong secret is refused.
                expect(
                  (yield* clients.authenticate(basic(confidential.client_id, secret), undefined, "127.0.0.1"))
                    .id
                ).toBe(confidential.client_id)
                expect((yield* clients.authenticate(undefined, publicClient.client_id, "127.0.0.1")).id).toBe(
                  publicClient.client_id
                )
                const wrong = yield* Effect.flip(
                  clients.authenticate(basic(confidential.client_id, `${secret}x`), undefined, "127.0.0.1")
                )
                expect(wrong._tag).toBe("InvalidClient")
              }).pipe(Effect.provide(clientsOn(env)))
            )
          ),
        120_000
      )
    }
  )
}

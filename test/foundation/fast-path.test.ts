// The fast path of the hot reads and the HttpApi pipeline are one implementation of the contract: two
// instances on one database, one answering through the fast path and one traced (every request
// through the pipeline), give the same status, bytes and headers for every credential and input.
import { expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ServerAddress } from "../../src/http/NodeServer.js"
import { describeNeeding } from "../support/Needs.js"
import { otlpReceiver } from "../support/OtlpReceiver.js"
import type { TestResponse } from "../support/TestServer.js"
import { postgresUnavailable } from "./support/Backends.js"
import {
  type CallOptions,
  call,
  createOrganization,
  createToken,
  foundationServer,
  join,
  postgresFoundationServer,
  signUp,
  sqlQuery,
  TestDatabaseUrl
} from "./support/FoundationClient.js"

class Pipeline extends Context.Tag("Pipeline")<Pipeline, Context.Context<ServerAddress>>() {}

/** What a client can see of an answer. */
const seen = (response: TestResponse) => ({
  status: response.status,
  body: response.text,
  headers: Object.fromEntries(
    ["content-type", "content-length", "cache-control", "www-authenticate", "retry-after", "set-cookie"].map(
      (name) => [name, response.headers.get(name)]
    )
  )
})

describeNeeding(postgresUnavailable)("the fast path of the hot reads", () => {
  const twoInstances = Layer.unwrapScoped(
    Effect.gen(function* () {
      const url = yield* TestDatabaseUrl
      // An instance that exports traces answers every request through the pipeline.
      const receiver = yield* otlpReceiver
      const traced = yield* Layer.build(
        foundationServer(Effect.succeed({ DATABASE_URL: url }), {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_METRICS_EXPORTER: "none"
        })
      )
      return Layer.succeed(Pipeline, traced)
    })
  ).pipe(Layer.provideMerge(postgresFoundationServer()))

  /** The same request to both instances: the fast one first, then the pipeline. */
  const both = (path: string, options: CallOptions = {}) =>
    Effect.gen(function* () {
      const pipeline = yield* Pipeline
      const fast = yield* call(path, options)
      const slow = yield* call(path, options).pipe(Effect.provide(pipeline))
      return { fast: seen(fast), slow: seen(slow) }
    })

  layer(twoInstances, { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("answers every credential and input byte for byte as the pipeline does", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("fast-owner")
        const outsider = yield* signUp("fast-outsider")
        const organization = yield* createOrganization(owner, "Fast Path")
        const other = yield* createOrganization(outsider, "Elsewhere")
        for (let i = 0; i < 3; i++) yield* join(owner, organization.id, "member", `fast-member-${i}`)
        const reader = yield* createToken(owner, organization.id, ["organizations:read"])
        const writer = yield* createToken(owner, organization.id, ["organizations:write"])
        const revoked = yield* createToken(owner, organization.id, ["organizations:read"])
        yield* call(`/organizations/${organization.id}/tokens/${revoked.id}`, {
          method: "DELETE",
          session: owner.session
        })
        const firstPage = yield* call(`/organizations/${organization.id}/members?limit=2`, {
          session: owner.session
        })
        const cursor = String((firstPage.json as { nextCursor: string }).nextCursor)

        const credentials: ReadonlyArray<[string, CallOptions]> = [
          ["no credential", {}],
          ["owner's session", { session: owner.session }],
          ["outsider's session", { session: outsider.session }],
          ["unknown session", { session: "not-a-session" }],
          ["token with organizations:read", { bearer: reader.token }],
          ["token without it", { bearer: writer.token }],
          ["revoked token", { bearer: revoked.token }],
          ["unknown token", { bearer: "fst_unknown" }],
          ["malformed authorization", { headers: { authorization: "Basic abc" } }],
          ["bearer and cookie", { bearer: reader.token, session: owner.session }]
        ]
        const paths = [
          "/credential-context",
          "/credential-context?x=1",
          `/organizations/${organization.id}`,
          `/organizations/${other.id}`,
          "/organizations/org_doesnotexist",
          `/organizations/${organization.id}/members`,
          `/organizations/${organization.id}/members?limit=2`,
          `/organizations/${organization.id}/members?limit=2&cursor=${cursor}`,
          `/organizations/${organization.id}/members?limit=&cursor=`,
          `/organizations/${organization.id}/members?limit=0`,
          `/organizations/${organization.id}/members?limit=2&limit=3`,
          `/organizations/${organization.id}/members?cursor=bm90IGEgY3Vyc29y`,
          `/organizations/${other.id}/members`
        ]
        for (const [label, options] of credentials) {
          for (const path of paths) {
            const { fast, slow } = yield* both(path, options)
            expect(fast, `${label}: GET ${path}`).toEqual(slow)
          }
        }
      })
    )

    it.effect("sends the renewed session cookie as the pipeline does", () =>
      Effect.gen(function* () {
        const account = yield* signUp("fast-renewal")
        const age = sqlQuery(
          "UPDATE sessions SET last_seen_at = now() - interval '2 minutes' WHERE user_id = $1",
          [account.userId]
        )
        yield* age
        const fast = seen(yield* call("/credential-context", { session: account.session }))
        yield* age
        const pipeline = yield* Pipeline
        const slow = seen(
          yield* call("/credential-context", { session: account.session }).pipe(Effect.provide(pipeline))
        )
        expect(fast.headers["set-cookie"]).not.toBeNull()
        expect(fast).toEqual(slow)
      })
    )

    it.effect("refuses a token on the very next request once its creator is removed", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("fast-revocation")
        const organization = yield* createOrganization(owner, "Revocation")
        const admin = yield* join(owner, organization.id, "admin", "fast-admin")
        const token = yield* createToken(admin.account, organization.id, ["organizations:read"])
        expect((yield* call(`/organizations/${organization.id}`, { bearer: token.token })).status).toBe(200)
        yield* call(`/organizations/${organization.id}/members/${admin.memberId}`, {
          method: "DELETE",
          session: owner.session
        })
        const refused = yield* both(`/organizations/${organization.id}`, { bearer: token.token })
        expect(refused.fast.status).not.toBe(200)
        expect(refused.fast).toEqual(refused.slow)
      })
    )
  })
})

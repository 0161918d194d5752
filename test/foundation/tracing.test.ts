// Spans of the foundation's services and repositories: with HTTP_TRACING on, a request's trace shows
// the service call under the request and the repository calls under the service; with it off, none
// of them makes a span (what a span would cost is not paid).
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { freshDataDir } from "./support/Backends.js"
import { call, createOrganization, foundationServer, signUp } from "./support/FoundationClient.js"

interface Recorded {
  readonly name: string
  readonly parent: string | undefined
}

/** A tracer that records every span's name and its parent's, then does what the default one does. */
const recordingSpans = (recorded: Array<Recorded>) =>
  Layer.unwrapEffect(
    Effect.map(Effect.tracer, (native) =>
      Layer.setTracer(
        Tracer.make({
          span: (name, parent, context, links, startTime, kind, options) => {
            const parentName = Option.match(parent, {
              onNone: () => undefined,
              onSome: (span) => (span._tag === "Span" ? span.name : "external")
            })
            recorded.push({ name, parent: parentName })
            return native.span(name, parent, context, links, startTime, kind, options)
          },
          context: (f, fiber) => native.context(f, fiber)
        })
      )
    )
  )

/** Names such as `Organizations.update` or `OrganizationRepo.lockForChange`: ours, not the platform's. */
const isOurs = (name: string) => /^[A-Z][A-Za-z]+\.[a-z][A-Za-z]+$/.test(name)

const server = (tracing: boolean, recorded: Array<Recorded>) =>
  foundationServer(
    Effect.map(freshDataDir, (dir) => ({ DATA_DIR: dir })),
    { HTTP_TRACING: String(tracing) }
  ).pipe(Layer.provide(recordingSpans(recorded)))

/** Signs up, creates an organization and renames it; returns the spans of the rename alone. */
const renameOrganization = (recorded: Array<Recorded>) =>
  Effect.gen(function* () {
    const account = yield* signUp("traced")
    const organization = yield* createOrganization(account, "Traced")
    recorded.length = 0
    const response = yield* call(`/organizations/${organization.id}`, {
      method: "PATCH",
      session: account.session,
      body: { version: 1, name: "Renamed" }
    })
    expect(response.status).toBe(200)
    return [...recorded]
  })

describe("with HTTP_TRACING on", () => {
  const recorded: Array<Recorded> = []
  layer(server(true, recorded), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("a request's trace shows the service call and, under it, the repository calls", () =>
      Effect.gen(function* () {
        const spans = yield* renameOrganization(recorded)
        const parentOf = (name: string) => spans.find((span) => span.name === name)?.parent
        const ancestorsOf = (name: string): Array<string> => {
          const parent = parentOf(name)
          return parent === undefined ? [] : [parent, ...ancestorsOf(parent)]
        }
        expect(parentOf("Organizations.update")).toBe("http.server PATCH")
        // The service's transaction is a span of the SQL client, between the service and its calls.
        for (const call of [
          "OrganizationRepo.lockForChange",
          "OrganizationAccess.requireRole",
          "OrganizationRepo.update"
        ]) {
          expect(ancestorsOf(call), call).toEqual([
            "sql.transaction",
            "Organizations.update",
            "http.server PATCH"
          ])
        }
        expect(parentOf("OrganizationRepo.membershipOf")).toBe("OrganizationAccess.requireRole")
        // Authentication runs under the request too, and the SQL under the repository calls.
        expect(parentOf("Sessions.authenticate")).toBe("http.server PATCH")
        expect(parentOf("RateLimiter.consume")).toBe("http.server PATCH")
        expect(
          spans.filter((span) => span.parent === "OrganizationRepo.update").map((span) => span.name)
        ).toEqual(["sql.execute"])
      })
    )
  })
})

describe("with HTTP_TRACING off", () => {
  const recorded: Array<Recorded> = []
  layer(server(false, recorded), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("the same request makes no span of a service or repository call", () =>
      Effect.gen(function* () {
        const spans = yield* renameOrganization(recorded)
        expect(spans.filter((span) => isOurs(span.name))).toEqual([])
        expect(spans.some((span) => span.name.startsWith("http.server"))).toBe(false)
      })
    )
  })
})

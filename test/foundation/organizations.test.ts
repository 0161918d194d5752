// organizations.create (extensions §2), the routing of /api/v1 (unknown routes and methods in the
// error envelope), and the foundation switched off.
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { request, testServer } from "../support/TestServer.js"
import { freshDataDir } from "./support/Backends.js"
import { call, foundationServer, signUp } from "./support/FoundationClient.js"

describe("organizations on PGlite", () => {
  layer(foundationServer(freshDataDir.pipe(Effect.map((dir) => ({ DATA_DIR: dir })))), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect("organizations.create makes the creator owner and the organization active, at version 1", () =>
      Effect.gen(function* () {
        const account = yield* signUp("creator")
        const response = yield* call("/organizations", {
          session: account.session,
          body: { name: "Café Crème", slug: `cafe-${Date.now()}` }
        })
        expect(response.status).toBe(200)
        const organization = response.json as Record<string, unknown>
        expect(organization).toEqual({
          id: expect.any(String),
          name: "Café Crème",
          slug: expect.stringMatching(/^cafe-\d+$/),
          companyName: null,
          website: null,
          phone: null,
          address: null,
          version: 1
        })
        const context = yield* call("/credential-context", { session: account.session })
        expect(context.json).toEqual({
          principalKind: "session",
          activeOrganizationId: organization.id,
          organizations: [{ id: organization.id, name: "Café Crème", role: "owner" }]
        })
      })
    )

    it.effect("a slug is derived from the name, and a taken derived slug gets a suffix", () =>
      Effect.gen(function* () {
        const account = yield* signUp("slugs")
        const name = `Ünïcode & Co ${Date.now()}`
        const first = yield* call("/organizations", { session: account.session, body: { name } })
        expect(first.status).toBe(200)
        const slug = (first.json as { slug: string }).slug
        expect(slug).toMatch(/^unicode-co-\d+$/)
        const second = yield* call("/organizations", { session: account.session, body: { name } })
        expect(second.status).toBe(200)
        expect((second.json as { slug: string }).slug).toMatch(new RegExp(`^${slug}-[a-z0-9]{6}$`))
      })
    )

    it.effect("a slug already in use is 409 CONFLICT and creates nothing", () =>
      Effect.gen(function* () {
        const account = yield* signUp("slug-conflict")
        const slug = `taken-${Date.now()}`
        expect(
          (yield* call("/organizations", { session: account.session, body: { name: "A", slug } })).status
        ).toBe(200)
        const again = yield* call("/organizations", { session: account.session, body: { name: "B", slug } })
        expect(again.status).toBe(409)
        expect(again.json).toMatchObject({ defined: true, code: "CONFLICT", status: 409 })
        const context = yield* call("/credential-context", { session: account.session })
        expect((context.json as { organizations: Array<unknown> }).organizations).toHaveLength(1)
      })
    )

    it.effect("organizations.create validates name and slug", () =>
      Effect.gen(function* () {
        const account = yield* signUp("org-invalid")
        for (const body of [
          { name: "" },
          { name: "n".repeat(121) },
          { name: "x", slug: "Upper" },
          { name: "x", slug: "with space" },
          { name: "x", slug: "" },
          { name: "x", slug: "s".repeat(61) },
          { slug: "no-name" }
        ]) {
          const response = yield* call("/organizations", { session: account.session, body })
          expect(response.status, JSON.stringify(body)).toBe(400)
          expect(response.json).toMatchObject({ defined: true, code: "BAD_REQUEST" })
        }
      })
    )

    it.effect("unknown routes and methods under /api/v1 answer in the error envelope", () =>
      Effect.gen(function* () {
        const unknown = yield* request("/api/v1/nothing-here")
        expect(unknown.status).toBe(404)
        expect(unknown.json).toMatchObject({ defined: true, code: "NOT_FOUND", status: 404 })
        const wrongMethod = yield* request("/api/v1/profile", { method: "DELETE" })
        expect(wrongMethod.status).toBe(405)
        expect(wrongMethod.headers.get("allow")).toContain("GET")
        expect(wrongMethod.json).toMatchObject({ defined: true, code: "METHOD_NOT_ALLOWED" })
      })
    )
  })
})

describe("the foundation switched off", () => {
  layer(testServer({ CATALOG_ENABLED: "false", FOUNDATION_ENABLED: "false" }), { excludeTestServices: true })(
    (it) => {
      it.effect("serves nothing at /api/v1 and opens no database", () =>
        Effect.gen(function* () {
          const response = yield* request("/api/v1/profile")
          expect(response.status).toBe(404)
        })
      )
    }
  )
})

// Organizations (base contract §4, extensions §2): create, list, get, the optimistic-concurrency
// update with every bound of its body, switching the active organization; the routing of /api/v1
// (unknown routes and methods in the error envelope); and the foundation switched off. On PGlite and
// PostgreSQL.
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { request, testServer } from "../support/TestServer.js"
import { backends } from "./support/Backends.js"
import {
  type Account,
  call,
  createOrganization,
  createToken,
  foundationServer,
  isEnvelope,
  join,
  signUp
} from "./support/FoundationClient.js"

const organizationKeys = ["address", "companyName", "id", "name", "phone", "slug", "version", "website"]

/** The organization as its owner reads it. */
const read = (owner: Account, organizationId: string) =>
  Effect.map(call(`/organizations/${organizationId}`, { session: owner.session }), (response) => {
    expect(response.status).toBe(200)
    return response.json as Record<string, unknown>
  })

const patch = (account: Account, organizationId: string, body: unknown) =>
  call(`/organizations/${organizationId}`, { method: "PATCH", session: account.session, body })

for (const backend of backends) {
  describeNeeding(backend.missing)(`organizations on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { CREDENTIAL_RATE_LIMIT: "100000" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect(
        "organizations.create makes the creator owner and the organization active, at version 1",
        () =>
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

      it.effect(
        "organizations.list gives each of the caller's organizations with its role, all fields present",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("lister")
            const mine = yield* createOrganization(owner, "Mine")
            const theirs = yield* createOrganization(yield* signUp("other-owner"), "Theirs")
            const { account: other } = yield* join(owner, mine.id, "admin")
            const response = yield* call("/organizations", { session: owner.session })
            expect(response.status).toBe(200)
            expect(response.json).toEqual([
              {
                id: mine.id,
                name: "Mine",
                slug: mine.slug,
                companyName: null,
                website: null,
                phone: null,
                address: null,
                version: 1,
                role: "owner"
              }
            ])
            const asAdmin = (yield* call("/organizations", { session: other.session })).json as Array<{
              id: string
              role: string
            }>
            expect(asAdmin.map(({ id, role }) => ({ id, role }))).toEqual([{ id: mine.id, role: "admin" }])
            expect(asAdmin.some((organization) => organization.id === theirs.id)).toBe(false)
            const fresh = yield* signUp("no-organizations")
            expect((yield* call("/organizations", { session: fresh.session })).json).toEqual([])
          })
      )

      it.effect(
        "organizations.get answers the organization without role; a non-member gets 404 as for none",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("getter")
            const organization = yield* createOrganization(owner, "Readable")
            const { account: member } = yield* join(owner, organization.id, "member")
            for (const account of [owner, member]) {
              const response = yield* call(`/organizations/${organization.id}`, { session: account.session })
              expect(response.status).toBe(200)
              expect(Object.keys(response.json as object).sort()).toEqual(organizationKeys)
              expect(response.json).toMatchObject({ id: organization.id, name: "Readable", version: 1 })
            }
            const stranger = yield* signUp("stranger")
            const hidden = yield* call(`/organizations/${organization.id}`, { session: stranger.session })
            const missing = yield* call("/organizations/org_does_not_exist", { session: stranger.session })
            expect(hidden.status).toBe(404)
            expect(missing.status).toBe(404)
            // The two answers are the same: nothing tells an existing organization from a missing one.
            expect(hidden.json).toEqual(missing.json)
            expect(isEnvelope(hidden.json, 404)).toBe(true)
            const tooLong = yield* call(`/organizations/${"x".repeat(161)}`, { session: owner.session })
            expect(tooLong.status).toBe(400)
          })
      )

      it.effect("organizations.update changes the details, adds 1 to version and answers without role", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("updater")
          const organization = yield* createOrganization(owner, "Before")
          const response = yield* patch(owner, organization.id, {
            version: 1,
            name: "After",
            companyName: "After Ltd",
            website: "https://after.example/about?x=1",
            phone: "+44 20 7946 0000",
            address: "1 Quay Street, Bristol"
          })
          expect(response.status).toBe(200)
          expect(response.json).toEqual({
            id: organization.id,
            name: "After",
            slug: organization.slug,
            companyName: "After Ltd",
            website: "https://after.example/about?x=1",
            phone: "+44 20 7946 0000",
            address: "1 Quay Street, Bristol",
            version: 2
          })
          expect(yield* read(owner, organization.id)).toEqual(response.json)
        })
      )

      it.effect("omitted company details are kept and an empty string clears one to null", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("partial")
          const organization = yield* createOrganization(owner, "Partial")
          const full = { companyName: "C", website: "https://w.example", phone: "123", address: "A" }
          expect(
            (yield* patch(owner, organization.id, { version: 1, name: "Partial", ...full })).status
          ).toBe(200)
          const kept = yield* patch(owner, organization.id, { version: 2, name: "Renamed" })
          expect(kept.status).toBe(200)
          expect(kept.json).toMatchObject({ name: "Renamed", ...full, version: 3 })
          const cleared = yield* patch(owner, organization.id, {
            version: 3,
            name: "Renamed",
            website: "",
            phone: ""
          })
          expect(cleared.status).toBe(200)
          expect(cleared.json).toMatchObject({
            companyName: "C",
            website: null,
            phone: null,
            address: "A",
            version: 4
          })
          const allCleared = yield* patch(owner, organization.id, {
            version: 4,
            name: "Renamed",
            companyName: "",
            address: ""
          })
          expect(allCleared.json).toMatchObject({
            companyName: null,
            website: null,
            phone: null,
            address: null
          })
        })
      )

      it.effect("a stale or replayed version is 409 CONFLICT and changes nothing", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("stale")
          const organization = yield* createOrganization(owner, "Versioned")
          const write = { version: 1, name: "First write", phone: "1" }
          expect((yield* patch(owner, organization.id, write)).status).toBe(200)
          const after = yield* read(owner, organization.id)
          // The same write again (a retry after a lost answer), then other writes with old versions.
          for (const body of [
            write,
            { version: 1, name: "Other" },
            { version: 0, name: "Zero" },
            { version: 3, name: "Future" }
          ]) {
            const response = yield* patch(owner, organization.id, body)
            expect(response.status, JSON.stringify(body)).toBe(409)
            expect(response.json).toMatchObject({ defined: true, code: "CONFLICT", status: 409 })
            expect(isEnvelope(response.json, 409)).toBe(true)
          }
          expect(yield* read(owner, organization.id)).toEqual(after)
          expect(after.version).toBe(2)
        })
      )

      it.effect("every bound of the update body is 400 naming the field, and changes nothing", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("bounds")
          const organization = yield* createOrganization(owner, "Bounded")
          const before = yield* read(owner, organization.id)
          const ok = { version: 1, name: "Bounded" }
          const cases: ReadonlyArray<readonly [string, unknown]> = [
            ["version", { name: "x" }],
            ["version", { ...ok, version: -1 }],
            ["version", { ...ok, version: 1.5 }],
            ["version", { ...ok, version: "1" }],
            ["version", { ...ok, version: null }],
            ["version", { ...ok, version: 9007199254740992 }],
            ["name", { version: 1 }],
            ["name", { ...ok, name: "" }],
            ["name", { ...ok, name: "n".repeat(121) }],
            ["name", { ...ok, name: 5 }],
            ["companyName", { ...ok, companyName: "c".repeat(161) }],
            ["companyName", { ...ok, companyName: null }],
            ["phone", { ...ok, phone: "1".repeat(41) }],
            ["address", { ...ok, address: "a".repeat(501) }],
            ["website", { ...ok, website: "not a uri" }],
            ["website", { ...ok, website: "example.com" }],
            ["website", { ...ok, website: "https://exa mple.com" }],
            ["website", { ...ok, website: " https://example.com" }],
            ["website", { ...ok, website: "javascript:alert(1)" }],
            ["website", { ...ok, website: 42 }]
          ]
          for (const [field, body] of cases) {
            const response = yield* patch(owner, organization.id, body)
            expect(response.status, JSON.stringify(body)).toBe(400)
            expect(isEnvelope(response.json, 400), response.text).toBe(true)
            expect((response.json as { message: string }).message, JSON.stringify(body)).toContain(field)
          }
          for (const body of ["not json", "[]", "null", ""]) {
            const response = yield* request(`/api/v1/organizations/${organization.id}`, {
              method: "PATCH",
              headers: {
                "content-type": "application/json",
                origin: "http://foundation.test",
                cookie: `__Secure-service.session_token=${owner.session}`
              },
              body
            })
            expect(response.status, body).toBe(400)
            expect(isEnvelope(response.json, 400)).toBe(true)
          }
          expect(yield* read(owner, organization.id)).toEqual(before)
        })
      )

      it.effect("the largest values within the bounds are accepted, as is any http or https URL", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("limits")
          const organization = yield* createOrganization(owner, "Limits")
          const body = {
            version: 1,
            name: "n".repeat(120),
            companyName: "c".repeat(160),
            website: "https://office.limits.example/contact",
            phone: "1".repeat(40),
            address: "a".repeat(500)
          }
          const response = yield* patch(owner, organization.id, body)
          expect(response.status, response.text).toBe(200)
          const { version: _, ...fields } = body
          expect(response.json).toMatchObject({ ...fields, version: 2 })
          for (const website of [
            "http://127.0.0.1:8080/",
            "https://例え.jp/パス",
            "HTTPS://Limits.Example"
          ]) {
            const current = (yield* read(owner, organization.id)).version
            const again = yield* patch(owner, organization.id, { version: current, name: "Limits", website })
            expect(again.status, website).toBe(200)
          }
        })
      )

      it.effect("only owners, admins and tokens with organizations:write may update", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("writer-owner")
          const organization = yield* createOrganization(owner, "Writers")
          const { account: admin } = yield* join(owner, organization.id, "admin")
          const { account: member } = yield* join(owner, organization.id, "member")
          expect((yield* patch(admin, organization.id, { version: 1, name: "By admin" })).status).toBe(200)
          const refused = yield* patch(member, organization.id, { version: 2, name: "By member" })
          expect(refused.status).toBe(403)
          expect(isEnvelope(refused.json, 403)).toBe(true)
          const reader = yield* createToken(owner, organization.id, ["organizations:read"])
          const writer = yield* createToken(owner, organization.id, ["organizations:write"])
          const byReader = yield* call(`/organizations/${organization.id}`, {
            method: "PATCH",
            bearer: reader.token,
            body: { version: 2, name: "By reader" }
          })
          expect(byReader.status).toBe(403)
          const byWriter = yield* call(`/organizations/${organization.id}`, {
            method: "PATCH",
            bearer: writer.token,
            origin: null,
            body: { version: 2, name: "By token" }
          })
          expect(byWriter.status).toBe(200)
          expect(byWriter.json).toMatchObject({ name: "By token", version: 3 })
          // A write-only token cannot read.
          expect((yield* call(`/organizations/${organization.id}`, { bearer: writer.token })).status).toBe(
            403
          )
          expect((yield* call(`/organizations/${organization.id}`, { bearer: reader.token })).status).toBe(
            200
          )
        })
      )

      it.effect("organizations.switch makes one of the caller's organizations active; others are 404", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("switcher")
          const first = yield* createOrganization(owner, "First")
          const second = yield* createOrganization(owner, "Second")
          const active = () =>
            Effect.map(
              call("/context", { session: owner.session }),
              (response) => (response.json as { activeOrganizationId: string | null }).activeOrganizationId
            )
          expect(yield* active()).toBe(second.id)
          const switched = yield* call("/context/organization", {
            session: owner.session,
            body: { organizationId: first.id }
          })
          expect(switched.status).toBe(200)
          expect(switched.json).toEqual({ success: true })
          expect(yield* active()).toBe(first.id)
          const foreign = yield* createOrganization(yield* signUp("foreign"), "Foreign")
          for (const organizationId of [foreign.id, "org_missing"]) {
            const response = yield* call("/context/organization", {
              session: owner.session,
              body: { organizationId }
            })
            expect(response.status).toBe(404)
            expect(isEnvelope(response.json, 404)).toBe(true)
          }
          for (const body of [
            {},
            { organizationId: "" },
            { organizationId: "x".repeat(161) },
            { organizationId: 1 }
          ]) {
            const response = yield* call("/context/organization", { session: owner.session, body })
            expect(response.status, JSON.stringify(body)).toBe(400)
          }
          expect(yield* active()).toBe(first.id)
          const noOrigin = yield* call("/context/organization", {
            session: owner.session,
            origin: null,
            body: { organizationId: second.id }
          })
          expect(noOrigin.status).toBe(403)
          expect(yield* active()).toBe(first.id)
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
}

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

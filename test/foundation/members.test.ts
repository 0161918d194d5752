// Memberships (base contract §4, extensions §3): the paged member list, role changes and removals by
// each role, members leaving, and the last-owner rule. On PGlite and PostgreSQL.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"
import {
  type Account,
  allMembers,
  call,
  createOrganization,
  foundationServer,
  isEnvelope,
  join,
  memberIdOf,
  signUp
} from "./support/FoundationClient.js"

const setRole = (actor: Account, organizationId: string, memberId: string, role: unknown) =>
  call(`/organizations/${organizationId}/members/${memberId}`, {
    method: "PATCH",
    session: actor.session,
    body: { role }
  })

const remove = (actor: Account, organizationId: string, memberId: string) =>
  call(`/organizations/${organizationId}/members/${memberId}`, { method: "DELETE", session: actor.session })

const rolesOf = (viewer: Account, organizationId: string) =>
  Effect.map(allMembers(viewer, organizationId), (members) =>
    Object.fromEntries(members.map((member) => [member.userId, member.role]))
  )

const expectLastOwner = (response: { status: number; json: unknown }) => {
  expect(response.status).toBe(400)
  expect(response.json).toMatchObject({
    defined: true,
    code: "BAD_REQUEST",
    status: 400,
    data: { reason: "LAST_OWNER" }
  })
}

for (const backend of backends) {
  describeNeeding(backend.missing)(`members on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { CREDENTIAL_RATE_LIMIT: "100000" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect(
        "members.list gives exactly id, userId, name, email and role, in the order people joined",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("Owner Person")
            const organization = yield* createOrganization(owner, "Listed")
            const admin = yield* join(owner, organization.id, "admin", "Admin Person")
            const member = yield* join(owner, organization.id, "member", "Plain Member")
            for (const viewer of [owner, admin.account, member.account]) {
              const response = yield* call(`/organizations/${organization.id}/members`, {
                session: viewer.session
              })
              expect(response.status).toBe(200)
              const page = response.json as {
                items: Array<Record<string, unknown>>
                nextCursor: string | null
              }
              expect(Object.keys(page).sort()).toEqual(["items", "nextCursor"])
              expect(page.nextCursor).toBeNull()
              expect(page.items).toEqual([
                {
                  id: expect.stringMatching(/^mem_/),
                  userId: owner.userId,
                  name: "Owner Person",
                  email: owner.email,
                  role: "owner"
                },
                {
                  id: admin.memberId,
                  userId: admin.account.userId,
                  name: "Admin Person",
                  email: admin.account.email,
                  role: "admin"
                },
                {
                  id: member.memberId,
                  userId: member.account.userId,
                  name: "Plain Member",
                  email: member.account.email,
                  role: "member"
                }
              ])
            }
            const stranger = yield* signUp("stranger")
            const hidden = yield* call(`/organizations/${organization.id}/members`, {
              session: stranger.session
            })
            expect(hidden.status).toBe(404)
            expect(isEnvelope(hidden.json, 404)).toBe(true)
          })
      )

      it.effect(
        "members.list pages with opaque cursors; limit and cursor are checked; empty values mean defaults",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("pager")
            const organization = yield* createOrganization(owner, "Paged")
            for (let i = 0; i < 4; i++) yield* join(owner, organization.id, "member", `m${i}`)
            const everyone = (yield* allMembers(owner, organization.id)).map((member) => member.id)
            expect(everyone).toHaveLength(5)
            const seen: Array<string> = []
            let cursor: string | null = ""
            let pages = 0
            while (cursor !== null) {
              const response = yield* call(
                `/organizations/${organization.id}/members?limit=2&cursor=${cursor}`,
                {
                  session: owner.session
                }
              )
              expect(response.status).toBe(200)
              const page = response.json as { items: Array<{ id: string }>; nextCursor: string | null }
              if (page.nextCursor !== null) {
                expect(page.nextCursor).toMatch(/^[A-Za-z0-9_-]{1,160}$/)
                expect(page.nextCursor).not.toContain(page.items[1]?.id ?? "?")
              }
              seen.push(...page.items.map((item) => item.id))
              cursor = page.nextCursor
              pages++
            }
            expect(pages).toBe(3)
            expect(seen).toEqual(everyone)
            const defaults = yield* call(`/organizations/${organization.id}/members?cursor=&limit=`, {
              session: owner.session
            })
            expect(defaults.status).toBe(200)
            expect((defaults.json as { items: Array<{ id: string }> }).items.map((item) => item.id)).toEqual(
              everyone
            )
            const path = `/organizations/${organization.id}/members`
            for (const query of [
              "limit=0",
              "limit=101",
              "limit=1.5",
              "limit=ten",
              "limit=-1",
              "cursor=garbage",
              "cursor=%25%25%25",
              `cursor=${"A".repeat(161)}`,
              `cursor=${Buffer.from("99999999999999999.mem_x").toString("base64url")}`,
              `cursor=${Buffer.from("12.").toString("base64url")}`,
              "limit=1&limit=2"
            ]) {
              const response = yield* call(`${path}?${query}`, { session: owner.session })
              expect(response.status, query).toBe(400)
              expect(isEnvelope(response.json, 400), query).toBe(true)
            }
            const one = yield* call(`${path}?limit=1`, { session: owner.session })
            expect((one.json as { items: Array<unknown> }).items).toHaveLength(1)
            const hundred = yield* call(`${path}?limit=100`, { session: owner.session })
            expect(hundred.status).toBe(200)
          })
      )

      it.effect("an owner gives any role; the last owner cannot be demoted (400 LAST_OWNER)", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("role-owner")
          const organization = yield* createOrganization(owner, "Roles")
          const ownMemberId = yield* memberIdOf(owner, organization.id, owner.userId)
          const other = yield* join(owner, organization.id, "member")
          expectLastOwner(yield* setRole(owner, organization.id, ownMemberId, "admin"))
          expectLastOwner(yield* setRole(owner, organization.id, ownMemberId, "member"))
          // Setting the role it already has is harmless.
          expect((yield* setRole(owner, organization.id, ownMemberId, "owner")).status).toBe(200)
          for (const role of ["admin", "owner", "member", "owner"]) {
            const response = yield* setRole(owner, organization.id, other.memberId, role)
            expect(response.status).toBe(200)
            expect(response.json).toEqual({ success: true })
            expect((yield* rolesOf(owner, organization.id))[other.account.userId]).toBe(role)
          }
          // Two owners now: one may step down, and then the other is the last.
          expect((yield* setRole(owner, organization.id, ownMemberId, "admin")).status).toBe(200)
          expectLastOwner(yield* setRole(other.account, organization.id, other.memberId, "member"))
          expect(yield* rolesOf(owner, organization.id)).toEqual({
            [owner.userId]: "admin",
            [other.account.userId]: "owner"
          })
        })
      )

      it.effect("an admin makes non-owners member or admin, never touches owners nor makes one", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("admin-rules-owner")
          const organization = yield* createOrganization(owner, "Admin rules")
          const ownerMemberId = yield* memberIdOf(owner, organization.id, owner.userId)
          const admin = yield* join(owner, organization.id, "admin")
          const member = yield* join(owner, organization.id, "member")
          expect((yield* setRole(admin.account, organization.id, member.memberId, "admin")).status).toBe(200)
          expect((yield* setRole(admin.account, organization.id, member.memberId, "member")).status).toBe(200)
          for (const [target, role] of [
            [member.memberId, "owner"],
            [ownerMemberId, "admin"],
            [ownerMemberId, "member"],
            [admin.memberId, "owner"]
          ] as const) {
            const response = yield* setRole(admin.account, organization.id, target, role)
            expect(response.status, `${target} → ${role}`).toBe(403)
            expect(isEnvelope(response.json, 403)).toBe(true)
          }
          // An admin may step down to member.
          expect((yield* setRole(admin.account, organization.id, admin.memberId, "member")).status).toBe(200)
          expect(yield* rolesOf(owner, organization.id)).toEqual({
            [owner.userId]: "owner",
            [admin.account.userId]: "member",
            [member.account.userId]: "member"
          })
        })
      )

      it.effect(
        "a member changes no role; a non-member gets 404; unknown members are 404; bad roles 400",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("member-rules-owner")
            const organization = yield* createOrganization(owner, "Member rules")
            const member = yield* join(owner, organization.id, "member")
            const other = yield* join(owner, organization.id, "member")
            for (const [target, role] of [
              [other.memberId, "admin"],
              [member.memberId, "admin"],
              [member.memberId, "member"]
            ] as const) {
              expect((yield* setRole(member.account, organization.id, target, role)).status).toBe(403)
            }
            const stranger = yield* signUp("role-stranger")
            expect((yield* setRole(stranger, organization.id, other.memberId, "admin")).status).toBe(404)
            expect((yield* setRole(owner, organization.id, "mem_unknown", "admin")).status).toBe(404)
            // A member id of another organization is unknown here.
            const elsewhere = yield* createOrganization(owner, "Elsewhere")
            const elsewhereId = yield* memberIdOf(owner, elsewhere.id, owner.userId)
            expect((yield* setRole(owner, organization.id, elsewhereId, "admin")).status).toBe(404)
            for (const role of ["superuser", "", null, 1, "Owner"]) {
              const response = yield* setRole(owner, organization.id, other.memberId, role)
              expect(response.status, String(role)).toBe(400)
              expect((response.json as { message: string }).message).toContain("role")
            }
            expect((yield* setRole(owner, organization.id, "x".repeat(161), "admin")).status).toBe(400)
            expect(Object.values(yield* rolesOf(owner, organization.id)).sort()).toEqual([
              "member",
              "member",
              "owner"
            ])
          })
      )

      it.effect("an owner removes anyone, an admin non-owners, a member only themselves", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("remove-owner")
          const organization = yield* createOrganization(owner, "Removals")
          const ownerMemberId = yield* memberIdOf(owner, organization.id, owner.userId)
          const admin = yield* join(owner, organization.id, "admin")
          const member = yield* join(owner, organization.id, "member")
          const victim = yield* join(owner, organization.id, "member")
          const secondOwner = yield* join(owner, organization.id, "owner")

          expect((yield* remove(member.account, organization.id, victim.memberId)).status).toBe(403)
          expect((yield* remove(member.account, organization.id, ownerMemberId)).status).toBe(403)
          expect((yield* remove(admin.account, organization.id, ownerMemberId)).status).toBe(403)
          expect((yield* remove(admin.account, organization.id, secondOwner.memberId)).status).toBe(403)
          const removed = yield* remove(admin.account, organization.id, victim.memberId)
          expect(removed.status).toBe(200)
          expect(removed.json).toEqual({ success: true })
          expect((yield* remove(admin.account, organization.id, victim.memberId)).status).toBe(404)
          // The removed person no longer sees the organization.
          expect(
            (yield* call(`/organizations/${organization.id}`, { session: victim.account.session })).status
          ).toBe(404)
          expect((yield* remove(owner, organization.id, secondOwner.memberId)).status).toBe(200)
          expect((yield* remove(owner, organization.id, admin.memberId)).status).toBe(200)
          expect(Object.keys(yield* rolesOf(owner, organization.id)).sort()).toEqual(
            [owner.userId, member.account.userId].sort()
          )
        })
      )

      it.effect("a member leaves by removing themselves, and loses it as active organization", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("leave-owner")
          const organization = yield* createOrganization(owner, "Leavable")
          const member = yield* join(owner, organization.id, "member")
          expect(
            (yield* call("/context/organization", {
              session: member.account.session,
              body: { organizationId: organization.id }
            })).status
          ).toBe(200)
          const left = yield* remove(member.account, organization.id, member.memberId)
          expect(left.status).toBe(200)
          const context = yield* call("/context", { session: member.account.session })
          expect(context.json).toMatchObject({ activeOrganizationId: null, organizations: [] })
          expect((yield* call("/organizations", { session: member.account.session })).json).toEqual([])
          // Leaving again: the organization is now hidden from them.
          expect((yield* remove(member.account, organization.id, member.memberId)).status).toBe(404)
        })
      )

      it.effect("the last owner cannot leave or be removed; with another owner they can", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("last-owner")
          const organization = yield* createOrganization(owner, "Owned")
          const ownMemberId = yield* memberIdOf(owner, organization.id, owner.userId)
          expectLastOwner(yield* remove(owner, organization.id, ownMemberId))
          const admin = yield* join(owner, organization.id, "admin")
          expectLastOwner(yield* remove(owner, organization.id, ownMemberId))
          expect((yield* remove(admin.account, organization.id, ownMemberId)).status).toBe(403)
          expect((yield* setRole(owner, organization.id, admin.memberId, "owner")).status).toBe(200)
          expect((yield* remove(owner, organization.id, ownMemberId)).status).toBe(200)
          expect(yield* rolesOf(admin.account, organization.id)).toEqual({ [admin.account.userId]: "owner" })
          expectLastOwner(yield* remove(admin.account, organization.id, admin.memberId))
        })
      )
    })
  })
}

// Invitations (extensions §3, §4): who may invite and revoke, the one pending invitation per email,
// the outbox message with its link, accepting and rejecting by the verified invitee only, 409 on
// anything not pending, and the paged list. On PGlite and PostgreSQL (expiry, which needs the clock
// moved, is in concurrency.test.ts on PostgreSQL).
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"
import {
  type Account,
  call,
  createOrganization,
  foundationServer,
  type Invitation,
  invitationLinkFor,
  invite,
  isEnvelope,
  join,
  logLines,
  PUBLIC_ORIGIN,
  signUp,
  signUpVerified,
  uniqueEmail
} from "./support/FoundationClient.js"

const create = (actor: Account, organizationId: string, body: unknown) =>
  call(`/organizations/${organizationId}/invitations`, { session: actor.session, body })

const answer = (actor: Account, invitationId: string, verb: "accept" | "reject") =>
  call(`/invitations/${invitationId}/${verb}`, { session: actor.session, method: "POST" })

const revoke = (actor: Account, organizationId: string, invitationId: string) =>
  call(`/organizations/${organizationId}/invitations/${invitationId}`, {
    session: actor.session,
    method: "DELETE"
  })

const listAll = (viewer: Account, organizationId: string) =>
  Effect.gen(function* () {
    const items: Array<Invitation> = []
    let cursor = ""
    for (;;) {
      const response = yield* call(
        `/organizations/${organizationId}/invitations?limit=100&cursor=${cursor}`,
        {
          session: viewer.session
        }
      )
      expect(response.status).toBe(200)
      const page = response.json as { items: Array<Invitation>; nextCursor: string | null }
      items.push(...page.items)
      if (page.nextCursor === null) return items
      cursor = page.nextCursor
    }
  })

const statusOf = (viewer: Account, organizationId: string, invitationId: string) =>
  Effect.map(
    listAll(viewer, organizationId),
    (items) => items.find((item) => item.id === invitationId)?.status
  )

for (const backend of backends) {
  describeNeeding(backend.missing)(`invitations on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { CREDENTIAL_RATE_LIMIT: "100000" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect("invitations.create answers the five fields, pending for 7 days, and sends the link", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("inviter")
          const organization = yield* createOrganization(owner, "Inviting")
          const email = uniqueEmail("invitee")
          const before = Date.now()
          const response = yield* create(owner, organization.id, { email, role: "admin" })
          expect(response.status).toBe(200)
          const invitation = response.json as Invitation
          expect(Object.keys(invitation).sort()).toEqual(["email", "expiresAt", "id", "role", "status"])
          expect(invitation).toMatchObject({ email, role: "admin", status: "pending" })
          const lifetime = Date.parse(invitation.expiresAt) - before
          const week = 7 * 24 * 3600 * 1000
          expect(lifetime).toBeGreaterThan(week - 60_000)
          expect(lifetime).toBeLessThan(week + 60_000)
          const { line, id } = yield* invitationLinkFor(email, invitation.id)
          expect(id).toBe(invitation.id)
          expect(line).toContain(
            `${PUBLIC_ORIGIN}/accept-invitation?invitation=${encodeURIComponent(invitation.id)}`
          )
          expect(yield* listAll(owner, organization.id)).toEqual([invitation])
        })
      )

      it.effect(
        "a second pending invitation for the same email (any case) is 409; so is inviting a member",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("double-inviter")
            const organization = yield* createOrganization(owner, "Doubles")
            const email = uniqueEmail("twice")
            yield* invite(owner, organization.id, email)
            for (const again of [email, email.toUpperCase()]) {
              const response = yield* create(owner, organization.id, { email: again, role: "admin" })
              expect(response.status).toBe(409)
              expect(isEnvelope(response.json, 409)).toBe(true)
            }
            // Another organization may invite the same person.
            const other = yield* createOrganization(owner, "Other")
            expect((yield* create(owner, other.id, { email, role: "member" })).status).toBe(200)
            const member = yield* join(owner, organization.id, "member")
            const existing = yield* create(owner, organization.id, {
              email: member.account.email,
              role: "admin"
            })
            expect(existing.status).toBe(409)
            expect(yield* listAll(owner, organization.id)).toHaveLength(2)
          })
      )

      it.effect(
        "owners invite with any role; admins never as owner; members not at all; non-members get 404",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("role-inviter")
            const organization = yield* createOrganization(owner, "Role invites")
            const admin = yield* join(owner, organization.id, "admin")
            const member = yield* join(owner, organization.id, "member")
            const stranger = yield* signUp("invite-stranger")
            for (const role of ["owner", "admin", "member"]) {
              expect((yield* create(owner, organization.id, { email: uniqueEmail(), role })).status).toBe(200)
            }
            for (const role of ["admin", "member"]) {
              expect(
                (yield* create(admin.account, organization.id, { email: uniqueEmail(), role })).status
              ).toBe(200)
            }
            const asOwner = yield* create(admin.account, organization.id, {
              email: uniqueEmail(),
              role: "owner"
            })
            expect(asOwner.status).toBe(403)
            expect(isEnvelope(asOwner.json, 403)).toBe(true)
            expect(
              (yield* create(member.account, organization.id, { email: uniqueEmail(), role: "member" }))
                .status
            ).toBe(403)
            expect(
              (yield* create(stranger, organization.id, { email: uniqueEmail(), role: "member" })).status
            ).toBe(404)
            expect(yield* listAll(owner, organization.id)).toHaveLength(5 + 2)
          })
      )

      it.effect("invitations.create checks the email and the role", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("invite-bounds")
          const organization = yield* createOrganization(owner, "Invite bounds")
          const cases: ReadonlyArray<readonly [string, unknown]> = [
            ["email", { role: "member" }],
            ["email", { email: "not-an-email", role: "member" }],
            ["email", { email: `${"a".repeat(243)}@example.com`, role: "member" }],
            ["email", { email: 7, role: "member" }],
            ["role", { email: uniqueEmail() }],
            ["role", { email: uniqueEmail(), role: "superuser" }],
            ["role", { email: uniqueEmail(), role: null }]
          ]
          for (const [field, body] of cases) {
            const response = yield* create(owner, organization.id, body)
            expect(response.status, JSON.stringify(body)).toBe(400)
            expect((response.json as { message: string }).message).toContain(field)
          }
          expect(yield* listAll(owner, organization.id)).toEqual([])
        })
      )

      it.effect(
        "the verified invitee accepts and joins with the invitation's role; acting again is 409",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("accept-owner")
            const organization = yield* createOrganization(owner, "Joinable")
            const invitee = yield* signUpVerified("accepter")
            const invitation = yield* invite(owner, organization.id, invitee.email.toUpperCase(), "admin")
            const accepted = yield* answer(invitee, invitation.id, "accept")
            expect(accepted.status).toBe(200)
            expect(accepted.json).toEqual({ success: true, organizationId: organization.id })
            const organizations = (yield* call("/organizations", { session: invitee.session }))
              .json as Array<{
              id: string
              role: string
            }>
            expect(organizations.map(({ id, role }) => ({ id, role }))).toEqual([
              { id: organization.id, role: "admin" }
            ])
            expect(yield* statusOf(owner, organization.id, invitation.id)).toBe("accepted")
            for (const verb of ["accept", "reject"] as const) {
              const again = yield* answer(invitee, invitation.id, verb)
              expect(again.status, verb).toBe(409)
              expect(isEnvelope(again.json, 409)).toBe(true)
            }
            const revoked = yield* revoke(owner, organization.id, invitation.id)
            expect(revoked.status).toBe(409)
            // Now a member, the invitee cannot be invited again.
            expect(
              (yield* create(owner, organization.id, { email: invitee.email, role: "member" })).status
            ).toBe(409)
          })
      )

      it.effect("only a session whose verified email is the invitation's may answer it (403 otherwise)", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("guarded-owner")
          const organization = yield* createOrganization(owner, "Guarded")
          const unverified = yield* signUp("unverified")
          const invitation = yield* invite(owner, organization.id, unverified.email)
          const someoneElse = yield* signUpVerified("someone-else")
          for (const [account, verb] of [
            [unverified, "accept"],
            [unverified, "reject"],
            [someoneElse, "accept"],
            [someoneElse, "reject"],
            [owner, "accept"]
          ] as const) {
            const response = yield* answer(account, invitation.id, verb)
            expect(response.status).toBe(403)
            expect(isEnvelope(response.json, 403)).toBe(true)
          }
          expect(yield* statusOf(owner, organization.id, invitation.id)).toBe("pending")
          const unknown = yield* answer(someoneElse, "inv_unknown", "accept")
          expect(unknown.status).toBe(404)
          expect(isEnvelope(unknown.json, 404)).toBe(true)
          expect((yield* answer(someoneElse, "x".repeat(161), "accept")).status).toBe(400)
          const noOrigin = yield* call(`/invitations/${invitation.id}/accept`, {
            session: someoneElse.session,
            method: "POST",
            origin: null
          })
          expect(noOrigin.status).toBe(403)
          const none = yield* call(`/invitations/${invitation.id}/accept`, { method: "POST" })
          expect(none.status).toBe(401)
        })
      )

      it.effect("rejecting marks the invitation rejected and frees the email for a new invitation", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("reject-owner")
          const organization = yield* createOrganization(owner, "Rejected")
          const invitee = yield* signUpVerified("rejecter")
          const invitation = yield* invite(owner, organization.id, invitee.email)
          const rejected = yield* answer(invitee, invitation.id, "reject")
          expect(rejected.status).toBe(200)
          expect(rejected.json).toEqual({ success: true })
          expect(yield* statusOf(owner, organization.id, invitation.id)).toBe("rejected")
          expect((yield* answer(invitee, invitation.id, "accept")).status).toBe(409)
          expect((yield* call("/organizations", { session: invitee.session })).json).toEqual([])
          const second = yield* invite(owner, organization.id, invitee.email, "member")
          expect((yield* answer(invitee, second.id, "accept")).status).toBe(200)
        })
      )

      it.effect(
        "owners and admins revoke pending invitations (admins not an owner's); revoked ones are final",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUp("revoke-owner")
            const organization = yield* createOrganization(owner, "Revocations")
            const admin = yield* join(owner, organization.id, "admin")
            const member = yield* join(owner, organization.id, "member")
            const invitee = yield* signUpVerified("revoked-invitee")
            const toOwner = yield* invite(owner, organization.id, uniqueEmail("future-owner"), "owner")
            const toMember = yield* invite(owner, organization.id, invitee.email, "member")
            expect((yield* revoke(member.account, organization.id, toMember.id)).status).toBe(403)
            expect((yield* revoke(admin.account, organization.id, toOwner.id)).status).toBe(403)
            expect(
              (yield* revoke(yield* signUp("revoke-stranger"), organization.id, toMember.id)).status
            ).toBe(404)
            // Through another organization's path, the invitation does not exist.
            const elsewhere = yield* createOrganization(owner, "Elsewhere")
            expect((yield* revoke(owner, elsewhere.id, toMember.id)).status).toBe(404)
            expect((yield* revoke(owner, organization.id, "inv_unknown")).status).toBe(404)
            const revoked = yield* revoke(admin.account, organization.id, toMember.id)
            expect(revoked.status).toBe(200)
            expect(revoked.json).toEqual({ success: true })
            expect((yield* revoke(owner, organization.id, toMember.id)).status).toBe(409)
            expect((yield* answer(invitee, toMember.id, "accept")).status).toBe(409)
            expect((yield* revoke(owner, organization.id, toOwner.id)).status).toBe(200)
            const statuses = Object.fromEntries(
              (yield* listAll(owner, organization.id)).map((item) => [item.id, item.status])
            )
            expect(statuses[toOwner.id]).toBe("revoked")
            expect(statuses[toMember.id]).toBe("revoked")
            expect((yield* call("/organizations", { session: invitee.session })).json).toEqual([])
          })
      )

      it.effect("invitations.list: any member reads it, newest first, 50 by default, with cursors", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("list-owner")
          const organization = yield* createOrganization(owner, "Many invitations")
          const member = yield* join(owner, organization.id, "member")
          const created: Array<string> = []
          for (let i = 0; i < 54; i++)
            created.push((yield* invite(owner, organization.id, uniqueEmail(`bulk${i}`))).id)
          // The member's own (accepted) invitation is the oldest.
          const first = yield* call(`/organizations/${organization.id}/invitations`, {
            session: member.account.session
          })
          expect(first.status).toBe(200)
          const page = first.json as { items: Array<Invitation>; nextCursor: string | null }
          expect(page.items).toHaveLength(50)
          expect(page.items.map((item) => item.id)).toEqual([...created].reverse().slice(0, 50))
          expect(page.nextCursor).not.toBeNull()
          const rest = yield* call(
            `/organizations/${organization.id}/invitations?cursor=${page.nextCursor}`,
            {
              session: member.account.session
            }
          )
          const restPage = rest.json as { items: Array<Invitation>; nextCursor: string | null }
          expect(restPage.items.map((item) => item.id)).toEqual([
            ...[...created].reverse().slice(50),
            expect.stringMatching(/^inv_/)
          ])
          expect(restPage.items.at(-1)?.status).toBe("accepted")
          expect(restPage.nextCursor).toBeNull()
          for (const query of ["limit=0", "limit=101", "cursor=nope"]) {
            const response = yield* call(`/organizations/${organization.id}/invitations?${query}`, {
              session: owner.session
            })
            expect(response.status, query).toBe(400)
          }
          const stranger = yield* signUp("list-stranger")
          expect(
            (yield* call(`/organizations/${organization.id}/invitations`, { session: stranger.session }))
              .status
          ).toBe(404)
        })
      )

      it.effect("a failed invitation writes no message", () =>
        Effect.gen(function* () {
          const owner = yield* signUp("quiet-owner")
          const organization = yield* createOrganization(owner, "Quiet")
          const member = yield* join(owner, organization.id, "member")
          const email = uniqueEmail("never-invited")
          expect((yield* create(member.account, organization.id, { email, role: "member" })).status).toBe(403)
          yield* invite(owner, organization.id, email)
          expect((yield* create(owner, organization.id, { email, role: "admin" })).status).toBe(409)
          yield* Effect.sleep("300 millis")
          expect(
            logLines.filter((line) => line.startsWith("Outbox invitation") && line.includes(email))
          ).toHaveLength(1)
        })
      )
    })
  })
}

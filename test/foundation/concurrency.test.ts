// What only real PostgreSQL can show (PGlite runs one query at a time and would hide lost updates):
// concurrent writers of one organization version, owners demoting each other at once, concurrent
// invitations for one email, keyset pages stable while members join, and invitation expiry (the
// clock is moved by ageing rows directly).
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { postgresUnavailable } from "./support/Backends.js"
import {
  allMembers,
  call,
  createOrganization,
  invite,
  isEnvelope,
  join,
  memberIdOf,
  postgresFoundationServer,
  signUp,
  signUpVerified,
  sqlQuery,
  uniqueEmail
} from "./support/FoundationClient.js"

/** A user and their membership, written directly, joined at now() shifted by `shift` (SQL). */
const insertMember = (organizationId: string, tag: string, shift: string) =>
  Effect.gen(function* () {
    const userId = `usr_${tag}_${organizationId}`
    yield* sqlQuery("INSERT INTO users (id, email, name) VALUES ($1, $2, $3)", [
      userId,
      `${tag}.${organizationId.toLowerCase()}@example.com`,
      tag
    ])
    yield* sqlQuery(
      `INSERT INTO members (id, organization_id, user_id, role, created_at)
       VALUES ($1, $2, $3, 'member', date_trunc('milliseconds', now()) ${shift})`,
      [`mem_${tag}_${organizationId}`, organizationId, userId]
    )
  })

describeNeeding(postgresUnavailable)("concurrency on PostgreSQL", () => {
  layer(postgresFoundationServer({ CREDENTIAL_RATE_LIMIT: "100000", DATABASE_POOL_SIZE: "20" }), {
    timeout: 120_000,
    excludeTestServices: true
  })((it) => {
    it.effect("20 concurrent updates with one version: exactly one 200, nineteen 409, one new version", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("race-owner")
        const organization = yield* createOrganization(owner, "Raced")
        const responses = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) =>
            call(`/organizations/${organization.id}`, {
              method: "PATCH",
              session: owner.session,
              body: { version: 1, name: `Writer ${i}`, phone: String(i) }
            })
          ),
          { concurrency: "unbounded" }
        )
        const statuses = responses.map((response) => response.status)
        expect(statuses.filter((status) => status === 200)).toHaveLength(1)
        expect(statuses.filter((status) => status === 409)).toHaveLength(19)
        for (const response of responses.filter((response) => response.status === 409)) {
          expect(isEnvelope(response.json, 409)).toBe(true)
        }
        const winner = responses.find((response) => response.status === 200)?.json as {
          name: string
          phone: string
        }
        const [row] = yield* sqlQuery(
          "SELECT name, phone, version::int AS version FROM organizations WHERE id = $1",
          [organization.id]
        )
        expect(row).toEqual({ name: winner.name, phone: winner.phone, version: 2 })
      })
    )

    it.effect("two owners demoting each other at once: one succeeds, one owner remains", () =>
      Effect.gen(function* () {
        for (let round = 0; round < 5; round++) {
          const first = yield* signUp("twin-owner")
          const organization = yield* createOrganization(first, "Twin owners")
          const second = yield* join(first, organization.id, "owner")
          const firstMemberId = yield* memberIdOf(first, organization.id, first.userId)
          const [a, b] = yield* Effect.all(
            [
              call(`/organizations/${organization.id}/members/${second.memberId}`, {
                method: "PATCH",
                session: first.session,
                body: { role: "member" }
              }),
              call(`/organizations/${organization.id}/members/${firstMemberId}`, {
                method: "PATCH",
                session: second.account.session,
                body: { role: "member" }
              })
            ],
            { concurrency: "unbounded" }
          )
          const statuses = [a?.status, b?.status]
          // The second to commit is either refused as last owner or, having lost its own ownership
          // first, as a member (403); never do both succeed.
          expect(statuses.filter((status) => status === 200)).toHaveLength(1)
          const [owners] = yield* sqlQuery(
            "SELECT count(*)::int AS n FROM members WHERE organization_id = $1 AND role = 'owner'",
            [organization.id]
          )
          expect(owners?.n).toBe(1)
        }
      })
    )

    it.effect("two owners removing each other at once: one owner remains", () =>
      Effect.gen(function* () {
        for (let round = 0; round < 5; round++) {
          const first = yield* signUp("twin-remover")
          const organization = yield* createOrganization(first, "Twin removers")
          const second = yield* join(first, organization.id, "owner")
          const firstMemberId = yield* memberIdOf(first, organization.id, first.userId)
          const responses = yield* Effect.all(
            [
              call(`/organizations/${organization.id}/members/${second.memberId}`, {
                method: "DELETE",
                session: first.session
              }),
              call(`/organizations/${organization.id}/members/${firstMemberId}`, {
                method: "DELETE",
                session: second.account.session
              })
            ],
            { concurrency: "unbounded" }
          )
          expect(responses.filter((response) => response.status === 200)).toHaveLength(1)
          const [owners] = yield* sqlQuery(
            "SELECT count(*)::int AS n FROM members WHERE organization_id = $1 AND role = 'owner'",
            [organization.id]
          )
          expect(owners?.n).toBe(1)
        }
      })
    )

    it.effect("concurrent invitations for one email: one 200, the others 409, one message", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("invite-race")
        const organization = yield* createOrganization(owner, "Invite race")
        const email = uniqueEmail("raced-invitee")
        const responses = yield* Effect.all(
          Array.from({ length: 10 }, () =>
            call(`/organizations/${organization.id}/invitations`, {
              session: owner.session,
              body: { email, role: "member" }
            })
          ),
          { concurrency: "unbounded" }
        )
        expect(responses.map((response) => response.status).sort()).toEqual([200, ...Array(9).fill(409)])
        const [messages] = yield* sqlQuery(
          "SELECT count(*)::int AS n FROM outbox WHERE kind = 'invitation' AND recipient = $1",
          [email]
        )
        expect(messages?.n).toBe(1)
      })
    )

    it.effect("an invitation accepted and revoked at once ends in exactly one of the two", () =>
      Effect.gen(function* () {
        for (let round = 0; round < 5; round++) {
          const owner = yield* signUp("accept-revoke-owner")
          const organization = yield* createOrganization(owner, "Accept or revoke")
          const invitee = yield* signUpVerified("accept-revoke")
          const invitation = yield* invite(owner, organization.id, invitee.email)
          const [accepted, revoked] = yield* Effect.all(
            [
              call(`/invitations/${invitation.id}/accept`, { method: "POST", session: invitee.session }),
              call(`/organizations/${organization.id}/invitations/${invitation.id}`, {
                method: "DELETE",
                session: owner.session
              })
            ],
            { concurrency: "unbounded" }
          )
          expect([accepted?.status, revoked?.status].sort()).toEqual([200, 409])
          const [row] = yield* sqlQuery("SELECT status FROM invitations WHERE id = $1", [invitation.id])
          const [membership] = yield* sqlQuery(
            "SELECT count(*)::int AS n FROM members WHERE organization_id = $1 AND user_id = $2",
            [organization.id, invitee.userId]
          )
          expect(row?.status).toBe(accepted?.status === 200 ? "accepted" : "revoked")
          expect(membership?.n).toBe(accepted?.status === 200 ? 1 : 0)
        }
      })
    )

    it.effect("members.list pages stay exact while members join between and during page reads", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("keyset-owner")
        const organization = yield* createOrganization(owner, "Keyset")
        // 30 members inserted directly (sign-ups would take a while), at distinct and equal times.
        yield* sqlQuery(
          `INSERT INTO users (id, email, name)
           SELECT 'usr_keyset_' || $1 || '_' || i, 'keyset' || i || '.' || $1 || '@example.com', 'Member ' || i
           FROM generate_series(1, 30) AS i`,
          [organization.id]
        )
        yield* sqlQuery(
          `INSERT INTO members (id, organization_id, user_id, role, created_at)
           SELECT 'mem_keyset_' || $1 || '_' || i, $1, 'usr_keyset_' || $1 || '_' || i, 'member',
             date_trunc('milliseconds', now()) + make_interval(secs => (i / 3)::int)
           FROM generate_series(1, 30) AS i`,
          [organization.id]
        )
        const before = (yield* allMembers(owner, organization.id)).map((member) => member.id)
        expect(before).toHaveLength(31)
        const seen: Array<string> = []
        let cursor = ""
        let page = 0
        for (;;) {
          // Members join while each page is read: one dated before every row, one after.
          const [response] = yield* Effect.all(
            [
              call(`/organizations/${organization.id}/members?limit=7&cursor=${cursor}`, {
                session: owner.session
              }),
              insertMember(organization.id, `early${page}`, "- interval '1 day'"),
              insertMember(organization.id, `late${page}`, "+ interval '1 day'")
            ],
            { concurrency: "unbounded" }
          )
          expect(response?.status).toBe(200)
          const body = response?.json as { items: Array<{ id: string }>; nextCursor: string | null }
          seen.push(...body.items.map((item) => item.id))
          page++
          if (body.nextCursor === null) break
          cursor = body.nextCursor
        }
        // No duplicates, and every member present before the walk is seen, in order.
        expect(new Set(seen).size).toBe(seen.length)
        expect(seen.filter((id) => before.includes(id))).toEqual(before)
      })
    )

    it.effect("an invitation past its expiry reads as expired, cannot be answered, and frees the email", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("expiry-owner")
        const organization = yield* createOrganization(owner, "Expiring")
        const invitee = yield* signUpVerified("late-invitee")
        const invitation = yield* invite(owner, organization.id, invitee.email)
        const [stored] = yield* sqlQuery(
          "SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM invitations WHERE id = $1",
          [invitation.id]
        )
        expect(stored?.seconds).toBe(7 * 24 * 3600)
        yield* sqlQuery(
          "UPDATE invitations SET expires_at = now() - interval '1 second', created_at = created_at - interval '7 days' WHERE id = $1",
          [invitation.id]
        )
        const list = yield* call(`/organizations/${organization.id}/invitations`, { session: owner.session })
        expect((list.json as { items: Array<{ id: string; status: string }> }).items).toEqual([
          expect.objectContaining({ id: invitation.id, status: "expired" })
        ])
        for (const verb of ["accept", "reject"]) {
          const response = yield* call(`/invitations/${invitation.id}/${verb}`, {
            method: "POST",
            session: invitee.session
          })
          expect(response.status).toBe(409)
        }
        const revoke = yield* call(`/organizations/${organization.id}/invitations/${invitation.id}`, {
          method: "DELETE",
          session: owner.session
        })
        expect(revoke.status).toBe(409)
        // A new invitation for the same email is allowed; the lapsed one is stored as expired.
        const again = yield* invite(owner, organization.id, invitee.email)
        const [old] = yield* sqlQuery("SELECT status FROM invitations WHERE id = $1", [invitation.id])
        expect(old?.status).toBe("expired")
        expect(
          (yield* call(`/invitations/${again.id}/accept`, { method: "POST", session: invitee.session }))
            .status
        ).toBe(200)
      })
    )

    it.effect("a burst of 100 concurrent tenant requests all succeed", () =>
      Effect.gen(function* () {
        const owner = yield* signUp("burst-owner")
        const organization = yield* createOrganization(owner, "Burst")
        const responses = yield* Effect.all(
          Array.from({ length: 100 }, (_, i) =>
            i % 3 === 0
              ? call(`/organizations/${organization.id}/members`, { session: owner.session })
              : i % 3 === 1
                ? call(`/organizations/${organization.id}/invitations`, {
                    session: owner.session,
                    body: { email: uniqueEmail(`burst${i}`), role: "member" }
                  })
                : call(`/organizations/${organization.id}`, { session: owner.session })
          ),
          { concurrency: "unbounded" }
        )
        expect(responses.every((response) => response.status === 200)).toBe(true)
      })
    )
  })
})

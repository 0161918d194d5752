// An organization API token acts for the person who created it (extensions §5, issue 14 item 3):
// `tokens.list` names the creator; a creator demoted to member keeps read and loses write (403);
// removing the creator, or their leaving, revokes their tokens there (401) and no one else's. These
// failed before the fix: a demoted or removed admin kept writing through the token they had made.
// On PGlite and PostgreSQL.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"
import {
  call,
  createOrganization,
  createToken,
  foundationServer,
  isEnvelope,
  join,
  signUpVerified
} from "./support/FoundationClient.js"

const readWrite = ["organizations:read", "organizations:write"]

/** organizations.update with the current version, as the token's bearer. */
const rename = (token: string, organizationId: string, name: string) =>
  Effect.gen(function* () {
    const current = yield* call(`/organizations/${organizationId}`, { bearer: token })
    const version = (current.json as { version?: number } | undefined)?.version ?? 1
    return yield* call(`/organizations/${organizationId}`, {
      method: "PATCH",
      bearer: token,
      body: { version, name }
    })
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`API tokens act for their creator on ${backend.name}`, () => {
    layer(foundationServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("tokens.list names each token's creator", () =>
        Effect.gen(function* () {
          const owner = yield* signUpVerified("creator-owner")
          const organization = yield* createOrganization(owner, "Creators")
          const admin = yield* join(owner, organization.id, "admin", "creator-admin")
          yield* createToken(owner, organization.id)
          yield* createToken(admin.account, organization.id)
          const list = yield* call(`/organizations/${organization.id}/tokens`, { session: owner.session })
          expect(list.status).toBe(200)
          const items = (list.json as { items: Array<{ createdBy: unknown }> }).items
          expect(items.map((item) => item.createdBy)).toEqual([
            { id: admin.account.userId, name: "creator-admin" },
            { id: owner.userId, name: "creator-owner" }
          ])
        })
      )

      it.effect(
        "a creator demoted to member keeps read and loses write (403); promoted again, writes again",
        () =>
          Effect.gen(function* () {
            const owner = yield* signUpVerified("demote-owner")
            const organization = yield* createOrganization(owner, "Demotions")
            const admin = yield* join(owner, organization.id, "admin", "demote-admin")
            const { token } = yield* createToken(admin.account, organization.id, readWrite)
            expect((yield* rename(token, organization.id, "Written as admin")).status).toBe(200)

            const demoted = yield* call(`/organizations/${organization.id}/members/${admin.memberId}`, {
              method: "PATCH",
              session: owner.session,
              body: { role: "member" }
            })
            expect(demoted.status).toBe(200)
            const read = yield* call(`/organizations/${organization.id}`, { bearer: token })
            expect(read.status).toBe(200)
            expect((read.json as { name: string }).name).toBe("Written as admin")
            const refused = yield* rename(token, organization.id, "Written as member")
            expect(refused.status).toBe(403)
            expect(isEnvelope(refused.json, 403)).toBe(true)
            expect((refused.json as { message: string }).message).toContain("acts for")
            const unchanged = yield* call(`/organizations/${organization.id}`, { session: owner.session })
            expect((unchanged.json as { name: string }).name).toBe("Written as admin")

            yield* call(`/organizations/${organization.id}/members/${admin.memberId}`, {
              method: "PATCH",
              session: owner.session,
              body: { role: "admin" }
            })
            expect((yield* rename(token, organization.id, "Written as admin again")).status).toBe(200)
          })
      )

      it.effect("removing the creator revokes their tokens there (401), and only theirs", () =>
        Effect.gen(function* () {
          const owner = yield* signUpVerified("remove-owner")
          const organization = yield* createOrganization(owner, "Removals")
          const admin = yield* join(owner, organization.id, "admin", "remove-admin")
          const theirs = yield* createToken(admin.account, organization.id, readWrite)
          const ours = yield* createToken(owner, organization.id, readWrite)
          // A token the admin made in an organization of their own is not touched.
          const elsewhere = yield* createOrganization(admin.account, "Admin's own")
          const own = yield* createToken(admin.account, elsewhere.id, readWrite)

          const removed = yield* call(`/organizations/${organization.id}/members/${admin.memberId}`, {
            method: "DELETE",
            session: owner.session
          })
          expect(removed.status).toBe(200)
          const after = yield* call(`/organizations/${organization.id}`, { bearer: theirs.token })
          expect(after.status).toBe(401)
          expect(isEnvelope(after.json, 401)).toBe(true)
          expect((yield* rename(theirs.token, organization.id, "Nope")).status).toBe(401)
          expect((yield* call(`/organizations/${organization.id}`, { bearer: ours.token })).status).toBe(200)
          expect((yield* call(`/organizations/${elsewhere.id}`, { bearer: own.token })).status).toBe(200)

          const list = yield* call(`/organizations/${organization.id}/tokens`, { session: owner.session })
          const ids = (list.json as { items: Array<{ id: string }> }).items.map((item) => item.id)
          expect(ids).toEqual([ours.id])
        })
      )

      it.effect("a creator who leaves takes their tokens with them", () =>
        Effect.gen(function* () {
          const owner = yield* signUpVerified("leave-owner")
          const organization = yield* createOrganization(owner, "Leavers")
          const admin = yield* join(owner, organization.id, "admin", "leave-admin")
          const { token } = yield* createToken(admin.account, organization.id, ["organizations:read"])
          expect((yield* call(`/organizations/${organization.id}`, { bearer: token })).status).toBe(200)
          const left = yield* call(`/organizations/${organization.id}/members/${admin.memberId}`, {
            method: "DELETE",
            session: admin.account.session
          })
          expect(left.status).toBe(200)
          expect((yield* call(`/organizations/${organization.id}`, { bearer: token })).status).toBe(401)
        })
      )
    })
  })
}

// Connections (extensions §8): a person sees and ends the grants they approved; owners and admins
// see, with the person named, and end every grant on their organization; members 403, others 404,
// bearer credentials 403 (session only). Keyset pages, newest first. On PGlite and PostgreSQL.
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
  PUBLIC_ORIGIN,
  signUpVerified
} from "./support/FoundationClient.js"
import { callApi, codeFlow, oauthWorld, registerPublic } from "./support/OAuthFlow.js"

interface ConnectionItem {
  readonly id: string
  readonly clientId: string
  readonly clientName: string | null
  readonly organization: { readonly id: string; readonly name: string }
  readonly scopes: ReadonlyArray<string>
  readonly resource: string
  readonly createdAt: string
  readonly lastUsedAt: string | null
  readonly user?: { readonly id: string; readonly name: string; readonly email: string }
}

type ConnectionPage = { readonly items: ReadonlyArray<ConnectionItem>; readonly nextCursor: string | null }

for (const backend of backends) {
  describeNeeding(backend.missing)(`connections on ${backend.name}`, () => {
    layer(foundationServer(backend.database, { OAUTH_REGISTRATION_RATE_LIMIT: "1000" }), {
      timeout: 120_000,
      excludeTestServices: true
    })((it) => {
      it.effect(
        "a person lists their connections, newest first, with the client, organization, scopes and resource",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const person = yield* signUpVerified("lister")
            const organization = yield* createOrganization(person, "Listed Org")
            const first = yield* registerPublic(world, "First app")
            const second = yield* registerPublic(world, "Second app")
            const tokens = yield* codeFlow(world, person, { client: first, organizationId: organization.id })
            yield* codeFlow(world, person, {
              client: second,
              organizationId: organization.id,
              extra: { scope: "organizations:read organizations:write" }
            })
            yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)

            const list = yield* call("/connections", { session: person.session })
            expect(list.status).toBe(200)
            const page = list.json as ConnectionPage
            expect(page.nextCursor).toBeNull()
            expect(page.items.map((item) => item.clientName)).toEqual(["Second app", "First app"])
            const [newest, oldest] = page.items
            expect(newest).toEqual({
              id: expect.stringMatching(/^grt_/),
              clientId: second.client_id,
              clientName: "Second app",
              organization: { id: organization.id, name: "Listed Org" },
              scopes: ["organizations:read", "organizations:write"],
              resource: `${PUBLIC_ORIGIN}/api/v1`,
              createdAt: expect.any(String),
              lastUsedAt: null
            })
            // The first one was used: its last use shows.
            expect(oldest?.lastUsedAt).not.toBeNull()
            expect(oldest?.user).toBeUndefined()
          })
      )

      it.effect("connections.list pages with a cursor and refuses a cursor that is not its own", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUpVerified("pager")
          const organization = yield* createOrganization(person, "Paged Connections")
          const client = yield* registerPublic(world)
          for (let i = 0; i < 5; i++)
            yield* codeFlow(world, person, { client, organizationId: organization.id })
          const seen: Array<string> = []
          let cursor = ""
          for (let pages = 0; pages < 10; pages++) {
            const response = yield* call(`/connections?limit=2&cursor=${cursor}`, { session: person.session })
            expect(response.status).toBe(200)
            const page = response.json as ConnectionPage
            seen.push(...page.items.map((item) => item.id))
            if (page.nextCursor === null) break
            cursor = page.nextCursor
          }
          expect(seen).toHaveLength(5)
          expect(new Set(seen).size).toBe(5)
          const bad = yield* call("/connections?cursor=garbage", { session: person.session })
          expect(bad.status).toBe(400)
          expect(isEnvelope(bad.json, 400)).toBe(true)
        })
      )

      it.effect("a person ends their own connection; someone else's is 404", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const person = yield* signUpVerified("ender")
          const organization = yield* createOrganization(person, "Ended Org")
          const stranger = yield* signUpVerified("stranger")
          const client = yield* registerPublic(world)
          const tokens = yield* codeFlow(world, person, { client, organizationId: organization.id })
          const [connection] = (
            (yield* call("/connections", { session: person.session })).json as ConnectionPage
          ).items
          const byStranger = yield* call(`/connections/${connection?.id}`, {
            method: "DELETE",
            session: stranger.session
          })
          expect(byStranger.status).toBe(404)
          expect(
            (yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)).status
          ).toBe(200)
          const ended = yield* call(`/connections/${connection?.id}`, {
            method: "DELETE",
            session: person.session
          })
          expect(ended.status).toBe(200)
          expect(ended.json).toEqual({ success: true })
          expect(
            ((yield* call("/connections", { session: person.session })).json as ConnectionPage).items
          ).toEqual([])
          const again = yield* call(`/connections/${connection?.id}`, {
            method: "DELETE",
            session: person.session
          })
          expect(again.status).toBe(404)
        })
      )

      it.effect(
        "owners and admins see every connection on the organization with its person, and end it",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("org-owner")
            const organization = yield* createOrganization(owner, "Watched Org")
            const admin = yield* join(owner, organization.id, "admin", "org-admin")
            const member = yield* join(owner, organization.id, "member", "org-member")
            const outsider = yield* signUpVerified("org-outsider")
            const client = yield* registerPublic(world, "Member's app")
            const tokens = yield* codeFlow(world, member.account, { client, organizationId: organization.id })
            // A connection on another organization never shows here.
            const elsewhere = yield* createOrganization(member.account, "Member's Own")
            yield* codeFlow(world, member.account, { client, organizationId: elsewhere.id })

            const path = `/organizations/${organization.id}/connections`
            const byOwner = yield* call(path, { session: owner.session })
            expect(byOwner.status).toBe(200)
            const items = (byOwner.json as ConnectionPage).items
            expect(items).toHaveLength(1)
            expect(items[0]?.user).toEqual({
              id: member.account.userId,
              name: "org-member",
              email: member.account.email
            })
            expect(items[0]?.organization).toEqual({ id: organization.id, name: "Watched Org" })
            expect((yield* call(path, { session: admin.account.session })).status).toBe(200)
            const byMember = yield* call(path, { session: member.account.session })
            expect(byMember.status).toBe(403)
            expect(isEnvelope(byMember.json, 403)).toBe(true)
            expect((yield* call(path, { session: outsider.session })).status).toBe(404)
            expect((yield* call(path)).status).toBe(401)
            const token = yield* createToken(owner, organization.id, [
              "organizations:read",
              "organizations:write"
            ])
            expect((yield* call(path, { bearer: token.token })).status).toBe(403)
            expect((yield* callApi(world, tokens.access_token, "/connections")).status).toBe(403)

            const connectionId = items[0]?.id ?? ""
            const notHere = yield* call(`/organizations/${elsewhere.id}/connections/${connectionId}`, {
              method: "DELETE",
              session: member.account.session
            })
            expect(notHere.status).toBe(404)
            const byMemberRevoke = yield* call(`${path}/${connectionId}`, {
              method: "DELETE",
              session: member.account.session
            })
            expect(byMemberRevoke.status).toBe(403)
            const revoked = yield* call(`${path}/${connectionId}`, {
              method: "DELETE",
              session: admin.account.session
            })
            expect(revoked.status).toBe(200)
            expect(
              (yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)).status
            ).toBe(401)
            expect(((yield* call(path, { session: owner.session })).json as ConnectionPage).items).toEqual([])
            // The member's connection on their own organization is still there.
            const own = (yield* call("/connections", { session: member.account.session }))
              .json as ConnectionPage
            expect(own.items.map((item) => item.organization.id)).toEqual([elsewhere.id])
          })
      )

      it.effect("removing a member ends their connections on that organization only", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const owner = yield* signUpVerified("cleanup-owner")
          const organization = yield* createOrganization(owner, "Cleanup Org")
          const member = yield* join(owner, organization.id, "member", "cleanup-member")
          const elsewhere = yield* createOrganization(member.account, "Cleanup Elsewhere")
          const client = yield* registerPublic(world)
          yield* codeFlow(world, member.account, { client, organizationId: organization.id })
          const kept = yield* codeFlow(world, member.account, { client, organizationId: elsewhere.id })
          yield* call(`/organizations/${organization.id}/members/${member.memberId}`, {
            method: "DELETE",
            session: owner.session
          })
          const own = (yield* call("/connections", { session: member.account.session }))
            .json as ConnectionPage
          expect(own.items.map((item) => item.organization.id)).toEqual([elsewhere.id])
          expect((yield* callApi(world, kept.access_token, `/organizations/${elsewhere.id}`)).status).toBe(
            200
          )
        })
      )
    })
  })
}

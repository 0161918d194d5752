// A member's removal against the OAuth grants made around it (extensions §8, last two points): the
// client exchanges a code and refreshes a token while the owner removes the person, many rounds; the
// person is then invited back, and nothing issued before the removal may work again: not the access
// tokens, not the refresh tokens, whichever of the requests won. On PGlite and PostgreSQL (where the
// requests really run at once). A grant is also checked against the membership it was made in where
// it is used: one that escaped its revocation (made so by hand, on PostgreSQL) still does not act
// for the person's new membership.
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as oauth from "oauth4webapi"
import { describeNeeding } from "../support/Needs.js"
import { backends, postgresUnavailable } from "./support/Backends.js"
import {
  type Account,
  admit,
  call,
  createOrganization,
  foundationServer,
  join,
  postgresFoundationServer,
  signUpVerified,
  sqlQuery
} from "./support/FoundationClient.js"
import {
  approve,
  authorizationUrl,
  callApi,
  codeFlow,
  consentPageFor,
  decide,
  exchange,
  type OAuthWorld,
  oauthErrorOf,
  oauthWorld,
  refresh,
  registerPublic
} from "./support/OAuthFlow.js"

const generous = {
  OAUTH_REGISTRATION_RATE_LIMIT: "1000",
  OAUTH_TOKEN_RATE_LIMIT: "100000",
  CREDENTIAL_RATE_LIMIT: "100000"
}
const WRITE = { scope: "organizations:read organizations:write" }

/** Every token a round ended up with: none of them may work once the person was removed. */
interface Issued {
  readonly access: Array<string>
  readonly refresh: Array<string>
}

/** What the round's access and refresh tokens do after the removal (and the re-invitation). */
const expectAllRefused = (world: OAuthWorld, client: oauth.Client, organizationId: string, issued: Issued) =>
  Effect.gen(function* () {
    for (const token of issued.access) {
      const read = yield* callApi(world, token, `/organizations/${organizationId}`)
      expect(read.status, "an access token issued before the removal").toBe(401)
    }
    for (const token of issued.refresh) {
      const failure = yield* oauthErrorOf(refresh(world, client, token))
      expect(failure.code, "a refresh token issued before the removal").toBe("invalid_grant")
    }
  })

/** Removes the member as the owner; the removal itself must succeed. */
const remove = (owner: Account, organizationId: string, memberId: string) =>
  Effect.map(
    call(`/organizations/${organizationId}/members/${memberId}`, {
      method: "DELETE",
      session: owner.session
    }),
    (answer) => expect(answer.status).toBe(200)
  )

for (const backend of backends) {
  describeNeeding(backend.missing)(`a member's removal against their grants on ${backend.name}`, () => {
    layer(foundationServer(backend.database, generous), { timeout: 120_000, excludeTestServices: true })(
      (it) => {
        const rounds = 25
        it.effect(
          `${rounds} rounds of exchange and refresh racing the removal: after the person is invited back, nothing issued before works`,
          () =>
            Effect.gen(function* () {
              const world = yield* oauthWorld
              const owner = yield* signUpVerified("race-owner")
              const organization = yield* createOrganization(owner, "Race Org")
              const client = yield* registerPublic(world)
              let joined = yield* join(owner, organization.id, "admin", "race-admin")
              const person = joined.account
              let exchanged = 0
              let refreshed = 0
              for (let round = 0; round < rounds; round++) {
                const held = yield* codeFlow(world, person, {
                  client,
                  organizationId: organization.id,
                  extra: WRITE
                })
                const start = yield* authorizationUrl(world, client.client_id, WRITE)
                const callback = yield* approve(world, person, start, { organizationId: organization.id })
                const [exchange_, refresh_] = yield* Effect.all(
                  [
                    Effect.exit(exchange(world, { client, extra: WRITE }, start, callback)),
                    Effect.exit(refresh(world, client, held.refresh_token ?? "")),
                    // At once in some rounds, a little later in others, so that each side wins some.
                    round % 3 === 0
                      ? remove(owner, organization.id, joined.memberId)
                      : Effect.delay(remove(owner, organization.id, joined.memberId), (round % 3) * 2)
                  ],
                  { concurrency: "unbounded" }
                )
                const issued: Issued = {
                  access: [held.access_token],
                  refresh: [held.refresh_token ?? ""]
                }
                for (const outcome of [exchange_, refresh_]) {
                  if (Exit.isSuccess(outcome)) {
                    issued.access.push(outcome.value.access_token)
                    issued.refresh.push(outcome.value.refresh_token ?? "")
                  }
                }
                if (Exit.isSuccess(exchange_)) exchanged++
                if (Exit.isSuccess(refresh_)) refreshed++
                yield* expectAllRefused(world, client, organization.id, issued)
                joined = yield* admit(owner, organization.id, person, "admin")
                yield* expectAllRefused(world, client, organization.id, issued)
              }
              // The figures of the race (which side won how often); the service's log is captured, so stdout.
              yield* Effect.sync(() =>
                console.info(
                  `removal race: ${exchanged}/${rounds} exchanges and ${refreshed}/${rounds} refreshes answered 200`
                )
              )
              // The exchange won some rounds: the case where a grant could outlive the removal was tried.
              expect(exchanged).toBeGreaterThan(0)
              // The person, invited back, can connect the app again: the new membership works.
              const again = yield* codeFlow(world, person, {
                client,
                organizationId: organization.id,
                extra: WRITE
              })
              expect(
                (yield* callApi(world, again.access_token, `/organizations/${organization.id}`)).status
              ).toBe(200)
            }),
          { timeout: 600_000 }
        )

        it.effect("a decision taken after the person was removed gets no code", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("late-owner")
            const organization = yield* createOrganization(owner, "Late Org")
            const client = yield* registerPublic(world)
            const joined = yield* join(owner, organization.id, "member", "late-member")
            const start = yield* authorizationUrl(world, client.client_id)
            const page = yield* consentPageFor(world, joined.account, start.url)
            yield* remove(owner, organization.id, joined.memberId)
            const answer = yield* decide(world, joined.account, page.text, {
              organizationId: organization.id
            })
            expect(answer.status).not.toBe(303)
            expect(answer.location).toBeNull()
          })
        )
      }
    )
  })
}

describe("a grant is used only with the membership it was made in", () => {
  describeNeeding(postgresUnavailable)("on PostgreSQL", () => {
    layer(postgresFoundationServer(generous), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("a grant that escaped its revocation does not act for the person's new membership", () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const owner = yield* signUpVerified("bound-owner")
          const organization = yield* createOrganization(owner, "Bound Org")
          const client = yield* registerPublic(world)
          const joined = yield* join(owner, organization.id, "admin", "bound-admin")
          const tokens = yield* codeFlow(world, joined.account, {
            client,
            organizationId: organization.id,
            extra: WRITE
          })
          yield* remove(owner, organization.id, joined.memberId)
          yield* admit(owner, organization.id, joined.account, "admin")
          // As if the revocation had missed it (what a race used to leave behind).
          const unrevoked = yield* sqlQuery(
            "UPDATE oauth_grants SET revoked_at = NULL, revoked_reason = NULL WHERE user_id = $1 RETURNING id",
            [joined.account.userId]
          )
          expect(unrevoked.length).toBe(1)
          // The grant is live again, but its membership has ended: it acts for no one (403), not for
          // the new membership, not even to write as the admin the person is again.
          const read = yield* callApi(world, tokens.access_token, `/organizations/${organization.id}`)
          expect(read.status).toBe(403)
          expect((read.json as { message: string }).message).toContain("no longer a member")
          const write = yield* callApi(
            world,
            tokens.access_token,
            `/organizations/${organization.id}`,
            "PATCH",
            {
              version: 1,
              name: "Written by an old grant"
            }
          )
          expect(write.status).toBe(403)
          expect((write.json as { message: string }).message).toContain("no longer a member")
          const failure = yield* oauthErrorOf(refresh(world, client, tokens.refresh_token ?? ""))
          expect(failure.code).toBe("invalid_grant")
          expect(failure.description).toContain("no longer a member")
        })
      )
    })
  })
})

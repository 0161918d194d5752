// What a client and a connection are said to hold, and what they get, in step (extensions §8): a
// registration lists the grant types the service honours (every client may refresh), and a refresh
// after the person was demoted issues only what a member may grant, for good, and the connection's
// listed scopes say so. On PGlite and PostgreSQL.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as oauth from "oauth4webapi"
import { describeNeeding } from "../support/Needs.js"
import { backends } from "./support/Backends.js"
import {
  call,
  createOrganization,
  foundationServer,
  join,
  signUpVerified
} from "./support/FoundationClient.js"
import { callApi, codeFlow, oauthErrorOf, oauthWorld, REDIRECT_URI, refresh } from "./support/OAuthFlow.js"

const generous = { OAUTH_REGISTRATION_RATE_LIMIT: "1000", OAUTH_TOKEN_RATE_LIMIT: "1000" }
const WRITE = { scope: "organizations:read organizations:write" }

for (const backend of backends) {
  describeNeeding(backend.missing)(`OAuth labels in step on ${backend.name}`, () => {
    layer(foundationServer(backend.database, generous), { timeout: 120_000, excludeTestServices: true })(
      (it) => {
        it.effect("a registration lists the grant types honoured, and the client may refresh", () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("grant-types")
            const organization = yield* createOrganization(owner, "Grant Types Org")
            for (const asked of [
              ["authorization_code"],
              undefined,
              ["refresh_token", "authorization_code"]
            ]) {
              const client = yield* Effect.promise(async () =>
                oauth.processDynamicClientRegistrationResponse(
                  await oauth.dynamicClientRegistrationRequest(
                    world.as,
                    {
                      client_name: "Code only",
                      redirect_uris: [REDIRECT_URI],
                      token_endpoint_auth_method: "none",
                      ...(asked === undefined ? {} : { grant_types: asked })
                    },
                    world.options
                  )
                )
              )
              expect(client.grant_types).toEqual(["authorization_code", "refresh_token"])
              const tokens = yield* codeFlow(world, owner, { client, organizationId: organization.id })
              const refreshed = yield* refresh(world, client, tokens.refresh_token ?? "")
              expect(refreshed.scope).toBe("organizations:read")
            }
          })
        )

        it.effect(
          "after a demotion a refresh issues read only, for good; asking for write is invalid_scope; the connection lists read",
          () =>
            Effect.gen(function* () {
              const world = yield* oauthWorld
              const owner = yield* signUpVerified("demoting-owner")
              const organization = yield* createOrganization(owner, "Demoted Refresh Org")
              const admin = yield* join(owner, organization.id, "admin", "demoted-admin")
              const client = yield* Effect.promise(async () =>
                oauth.processDynamicClientRegistrationResponse(
                  await oauth.dynamicClientRegistrationRequest(
                    world.as,
                    {
                      client_name: "Writer",
                      redirect_uris: [REDIRECT_URI],
                      token_endpoint_auth_method: "none"
                    },
                    world.options
                  )
                )
              )
              const tokens = yield* codeFlow(world, admin.account, {
                client,
                organizationId: organization.id,
                extra: WRITE
              })
              expect(tokens.scope).toBe("organizations:read organizations:write")
              const setRole = (role: string) =>
                Effect.map(
                  call(`/organizations/${organization.id}/members/${admin.memberId}`, {
                    method: "PATCH",
                    session: owner.session,
                    body: { role }
                  }),
                  (answer) => expect(answer.status).toBe(200)
                )
              yield* setRole("member")
              // Asking for write outright: refused, and the refresh token is not spent by it.
              const asked = yield* oauthErrorOf(
                refresh(world, client, tokens.refresh_token ?? "", oauth.None(), {
                  scope: "organizations:write"
                })
              )
              expect(asked.code).toBe("invalid_scope")
              const narrowed = yield* refresh(world, client, tokens.refresh_token ?? "")
              expect(narrowed.scope).toBe("organizations:read")
              expect(
                (yield* callApi(world, narrowed.access_token, `/organizations/${organization.id}`)).status
              ).toBe(200)
              const connections = yield* call("/connections", { session: admin.account.session })
              const [connection] = (connections.json as { items: Array<{ scopes: Array<string> }> }).items
              expect(connection?.scopes).toEqual(["organizations:read"])
              // Promoted again: the connection does not widen by itself.
              yield* setRole("admin")
              const again = yield* refresh(world, client, narrowed.refresh_token ?? "")
              expect(again.scope).toBe("organizations:read")
            })
        )
      }
    )
  })
}

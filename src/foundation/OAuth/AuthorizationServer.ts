// The authorization server's state changes (extensions §8): codes (60 s, single use, bound to the
// client, redirect URI, PKCE challenge, resource, person, organization and scopes), their exchange for
// an access token (opaque, 1 hour unless configured) and a refresh token (rotated on every use), reuse
// detection (a code or refresh token presented again revokes its grant), RFC 7009 revocation, and the
// lookup that turns an access token into a principal. Every secret is random (256 bits), shown once,
// and stored only as its SHA-256.
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ProtectedResources } from "../../http/ProtectedResources.js"
import { Transactions } from "../Database/DatabaseEdge.js"
import { builtOnce } from "../Database/RememberedRows.js"
import type { GrantScope, Role } from "../Domain/Common.js"
import { GrantId, type MemberId, type OrganizationId, type UserId } from "../Domain/Ids.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { boundOrganization } from "../Organizations/BoundOrganization.js"
import { OrganizationRepo } from "../Organizations/OrganizationRepo.js"
import type { OAuthPrincipal } from "../Security/Principal.js"
import { hashSecret, newId, randomSecret } from "../Security/Secrets.js"
import { traced } from "../Traced.js"
import { ClientRepo } from "./ClientRepo.js"
import { GrantRepo } from "./GrantRepo.js"
import type { OAuthClient } from "./OAuthClient.js"
import { InvalidGrant, InvalidScope, InvalidTarget } from "./OAuthErrors.js"
import { verifyS256 } from "./Pkce.js"
import { type AccessRow, TokenRepo } from "./TokenRepo.js"

/** Prefixes of the secrets, so secret scanners and people can tell them apart (`fst_` is an API token). */
export const ACCESS_TOKEN_PREFIX = "foa_"
export const REFRESH_TOKEN_PREFIX = "for_"
export const CODE_PREFIX = "foc_"

/** A code lives 60 seconds (extensions §8). */
export const CODE_TTL_SECONDS = 60

/** The token endpoint's answer (RFC 6749 §5.1). */
export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Int,
  refresh_token: Schema.String,
  scope: Schema.String
})
export type TokenResponse = typeof TokenResponse.Type

/** What a person approved, bound into a code. */
export interface Approval {
  readonly client: OAuthClient
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly resource: string
  readonly userId: UserId
  readonly organizationId: OrganizationId
  readonly scopes: ReadonlyArray<GrantScope>
}

/** The person cannot approve this (any more): they are not a member of the organization. */
export class ApprovalNotAllowed extends Schema.TaggedError<ApprovalNotAllowed>()("ApprovalNotAllowed", {
  reason: Schema.Literal("not_a_member")
}) {}

/** An access token's principal and the resource it was issued for. */
export interface AuthenticatedAccess {
  readonly principal: OAuthPrincipal
  readonly resource: string
}

/** The scopes of a `scope` parameter, or undefined when it names one twice or names nothing. */
export const parseScopes = (value: string): ReadonlyArray<string> | undefined => {
  const scopes = value.split(" ")
  return scopes.length === 0 || scopes.some((scope) => scope === "") || new Set(scopes).size !== scopes.length
    ? undefined
    : scopes
}

/**
 * The scopes a person with `role` may grant of `scopes`: changing the organization
 * (`organizations:write`) only as owner or admin (extensions §8). Asked at the decision and again at
 * every refresh, so a person demoted since grants no more than they now may.
 */
export const grantableScopes = <S extends GrantScope>(
  role: Role,
  scopes: ReadonlyArray<S>
): ReadonlyArray<S> =>
  role === "member" ? scopes.filter((scope) => scope !== "organizations:write") : scopes

/** Whether two sorted lists of scopes are the same. */
const sameScopes = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) =>
  a.length === b.length && a.every((scope, index) => scope === b[index])

/** Scopes in one order, whatever order they were asked in. */
export const sortScopes = <S extends string>(scopes: ReadonlyArray<S>): ReadonlyArray<S> => [...scopes].sort()

/**
 * The outcome a transaction returned, as success or failure once it has committed: a transaction
 * that fails rolls back, and reuse detection must commit its revocation while the request fails.
 */
/** How a token request ends: tokens, or the protocol error to answer with. */
type Outcome = Either.Either<TokenResponse, InvalidGrant | InvalidTarget | InvalidScope>
const refused = (error: InvalidGrant | InvalidTarget | InvalidScope): Outcome => Either.left(error)
const issued = (response: TokenResponse): Outcome => Either.right(response)

const settle = <A, E, E2, R>(
  outcome: Effect.Effect<Either.Either<A, E>, E2, R>
): Effect.Effect<A, E | E2, R> => Effect.flatMap(outcome, (either) => either)

export class AuthorizationServer extends Effect.Service<AuthorizationServer>()("AuthorizationServer", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const tokens = yield* TokenRepo
    const grants = yield* GrantRepo
    const clients = yield* ClientRepo
    const organizations = yield* OrganizationRepo
    const resources = yield* ProtectedResources
    const config = yield* FoundationConfig
    /** Scopes a client names, as `resource` reads them today (a former scope as the one it stands for). */
    const currentOf = (resource: string, scopes: ReadonlyArray<string>) =>
      resources.byResource(resource)?.currentScopes(scopes) ?? scopes
    const accessSeconds = Math.floor(Duration.toSeconds(config.oauthAccessTokenTtl))
    const refreshSeconds = Math.floor(Duration.toSeconds(config.oauthRefreshTokenTtl))

    /**
     * A code for what the person approved, bound to their membership of the organization as it is
     * now (locked while the code is written, so a removal under way is waited for); only its hash
     * is kept. Fails when the person is no longer a member.
     */
    const issueCode = traced("AuthorizationServer.issueCode", (approval: Approval) =>
      transactions.run(
        Effect.gen(function* () {
          const membership = yield* organizations.lockMembership(approval.userId, approval.organizationId)
          if (Option.isNone(membership)) return yield* new ApprovalNotAllowed({ reason: "not_a_member" })
          const code = `${CODE_PREFIX}${randomSecret(32)}`
          yield* tokens.insertCode({
            codeHash: hashSecret(code),
            clientId: approval.client.id,
            redirectUri: approval.redirectUri,
            codeChallenge: approval.codeChallenge,
            resource: approval.resource,
            userId: approval.userId,
            organizationId: approval.organizationId,
            memberId: membership.value.id,
            scopes: approval.scopes,
            ttlSeconds: CODE_TTL_SECONDS
          })
          return code
        })
      )
    )

    /** A new access token (with `scopes`) and refresh token for the grant. */
    const issueTokens = (grantId: GrantId, scopes: ReadonlyArray<GrantScope>) =>
      Effect.gen(function* () {
        const accessToken = `${ACCESS_TOKEN_PREFIX}${randomSecret(32)}`
        const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomSecret(32)}`
        yield* tokens.insertAccessToken({
          id: newId("oat"),
          tokenHash: hashSecret(accessToken),
          grantId,
          scopes,
          ttlSeconds: accessSeconds
        })
        yield* tokens.insertRefreshToken({
          id: newId("ort"),
          tokenHash: hashSecret(refreshToken),
          grantId,
          ttlSeconds: refreshSeconds
        })
        return {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: accessSeconds,
          refresh_token: refreshToken,
          scope: sortScopes(scopes).join(" ")
        } satisfies TokenResponse
      })

    /**
     * The membership a code or grant belongs to, locked until the transaction ends, or none when it
     * has ended (a person removed and invited back is a new membership, so none then too). The lock
     * makes a removal wait for the exchange or refresh under way, whose grant it then revokes; a
     * removal under way is waited for instead, and its membership is found gone (extensions §8).
     */
    const liveMembership = (memberId: MemberId | null) =>
      memberId === null ? Effect.succeed(Option.none()) : organizations.lockMember(memberId)

    /**
     * The authorization_code grant. The code's row is locked for the whole exchange: a concurrent
     * second presentation waits, then finds it used and revokes the grant the first created. Any
     * presentation uses the code up, whatever its outcome. The transaction returns its outcome rather
     * than failing, so a revocation commits although the request fails.
     */
    const exchangeCode = traced(
      "AuthorizationServer.exchangeCode",
      (
        client: OAuthClient,
        request: {
          readonly code: string
          readonly codeVerifier: string
          readonly redirectUri: string
          readonly resource: string | undefined
        }
      ) =>
        settle(
          transactions.run(
            Effect.gen(function* () {
              const found = yield* tokens.lockCode(hashSecret(request.code))
              if (Option.isNone(found))
                return refused(new InvalidGrant({ description: "The code is unknown." }))
              const code = found.value
              if (code.used) {
                if (code.grantId !== null) yield* grants.revoke(code.grantId, "code_reuse")
                return refused(
                  new InvalidGrant({
                    description: "The code was already used; the tokens issued for it are revoked."
                  })
                )
              }
              yield* tokens.markCodeUsed(code.codeHash)
              if (code.expired) return refused(new InvalidGrant({ description: "The code has expired." }))
              if (code.clientId !== client.id) {
                return refused(new InvalidGrant({ description: "The code was issued to another client." }))
              }
              if (code.redirectUri !== request.redirectUri) {
                return refused(
                  new InvalidGrant({ description: "redirect_uri differs from the authorization request's." })
                )
              }
              if (!verifyS256(request.codeVerifier, code.codeChallenge)) {
                return refused(
                  new InvalidGrant({ description: "code_verifier does not match the code_challenge." })
                )
              }
              if (request.resource !== undefined && request.resource !== code.resource) {
                return refused(
                  new InvalidTarget({ description: "resource differs from the authorization request's." })
                )
              }
              const membership = yield* liveMembership(code.memberId)
              if (Option.isNone(membership)) {
                return refused(
                  new InvalidGrant({
                    description: "The person who approved is no longer a member of the organization."
                  })
                )
              }
              const grantId = GrantId.make(newId("grt"))
              yield* grants.insert({
                id: grantId,
                clientId: client.id,
                userId: code.userId,
                organizationId: code.organizationId,
                memberId: membership.value.id,
                resource: code.resource,
                scopes: code.scopes
              })
              yield* tokens.setCodeGrant(code.codeHash, grantId)
              // A registration that was used is kept (housekeeping forgets the ones never used).
              yield* clients.touch(client.id)
              return issued(yield* issueTokens(grantId, code.scopes))
            })
          )
        )
    )

    /**
     * The refresh_token grant: rotation (the token is used up and a new one issued) with reuse
     * detection (a used one presented again revokes the grant, and with it every token of the grant).
     * `scope` may narrow the new access token, never widen it; the grant keeps its scopes, less those
     * the person may no longer grant (demoted since), and a grant of a resource's former scopes takes
     * the scopes they stand for.
     */
    const refresh = traced(
      "AuthorizationServer.refresh",
      (
        client: OAuthClient,
        request: {
          readonly refreshToken: string
          readonly scope: string | undefined
          readonly resource: string | undefined
        }
      ) =>
        settle(
          transactions.run(
            Effect.gen(function* () {
              const found = yield* tokens.lockRefresh(hashSecret(request.refreshToken))
              if (Option.isNone(found) || found.value.clientId !== client.id) {
                return refused(new InvalidGrant({ description: "The refresh token is unknown." }))
              }
              const token = found.value
              if (token.dead) {
                return refused(
                  new InvalidGrant({ description: "The refresh token has expired or was revoked." })
                )
              }
              if (token.used) {
                yield* grants.revoke(token.grantId, "refresh_reuse")
                return refused(
                  new InvalidGrant({
                    description: "The refresh token was already used; the connection is revoked."
                  })
                )
              }
              const membership = yield* liveMembership(token.memberId)
              if (Option.isNone(membership)) {
                yield* grants.revoke(token.grantId, "member_removed")
                return refused(
                  new InvalidGrant({
                    description: "The person who approved is no longer a member of the organization."
                  })
                )
              }
              if (request.resource !== undefined && request.resource !== token.resource) {
                return refused(new InvalidTarget({ description: "resource differs from the grant's." }))
              }
              // The grant holds what the person may still grant, in the resource's words of today: a
              // demotion narrows it for good (a later promotion does not widen it again; the app asks the
              // person anew), and a grant of the resource's former scopes is rewritten as the scopes they
              // stand for, which are the ones checked (any member may grant the notebook's).
              const held = resources.byResource(token.resource)?.currentScopes(token.scopes) ?? token.scopes
              const grantable = grantableScopes(membership.value.role, held)
              if (grantable.length === 0) {
                return refused(
                  new InvalidScope({
                    description:
                      "The person who approved may no longer grant any of this connection's scopes."
                  })
                )
              }
              if (!sameScopes(grantable, token.scopes)) yield* grants.narrow(token.grantId, grantable)
              let scopes: ReadonlyArray<GrantScope> = grantable
              if (request.scope !== undefined) {
                const parsed = parseScopes(request.scope)
                const asked = parsed === undefined ? undefined : currentOf(token.resource, parsed)
                const granted = grantable as ReadonlyArray<string>
                if (asked === undefined || !asked.every((scope) => granted.includes(scope))) {
                  return refused(
                    new InvalidScope({
                      description: "scope asks for more than was granted, or than the person may still grant."
                    })
                  )
                }
                scopes = grantable.filter((scope) => asked.includes(scope))
              }
              yield* tokens.markRefreshUsed(token.id)
              yield* tokens.touchGrant(token.grantId)
              return issued(yield* issueTokens(token.grantId, scopes))
            })
          )
        )
    )

    /**
     * RFC 7009: a refresh token revokes its grant; an access token only itself. A token that is not
     * the client's, or not a token at all, changes nothing and is not reported (the answer is 200).
     */
    const revoke = traced("AuthorizationServer.revoke", (client: OAuthClient, token: string) =>
      Effect.gen(function* () {
        const tokenHash = hashSecret(token)
        const grant = yield* tokens.grantOfRefresh({ tokenHash, clientId: client.id })
        if (Option.isSome(grant)) {
          yield* grants.revoke(grant.value.grantId, "client_revoked")
          return
        }
        yield* tokens.revokeAccessOfClient(tokenHash, client.id)
      })
    )

    // A row read again is the same remembered row (TokenRepo's `accessRows`): built once.
    const accessOf = builtOnce(
      (row: AccessRow): AuthenticatedAccess => ({
        principal: {
          kind: "oauth",
          grantId: row.grantId,
          clientId: row.clientId,
          organizationId: row.organizationId,
          scopes: row.scopes,
          actsFor: row.userId,
          actsAsMember: row.memberId,
          actsForRole: row.actsForRole,
          organization: boundOrganization(row)
        },
        resource: row.resource
      })
    )

    /** The principal of a live access token, and the resource it was issued for. */
    const authenticate = traced("AuthorizationServer.authenticate", (accessToken: string) =>
      Effect.map(tokens.authenticateAccess(hashSecret(accessToken)), Option.map(accessOf))
    )

    return { issueCode, exchangeCode, refresh, revoke, authenticate }
  })
}) {}

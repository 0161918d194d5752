// SQL for what the authorization server issues: authorization codes, access tokens and rotating
// refresh tokens, each stored only as the SHA-256 of the secret. The code and refresh-token lookups
// of the token endpoint lock their row, so two presentations of one secret run one after the other
// and the second sees the first's use (which is how reuse is detected, extensions §8).
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { rememberedRows } from "../Database/RememberedRows.js"
import { UntracedStatements } from "../Database/UntracedStatements.js"
import { GrantScope, Role } from "../Domain/Common.js"
import { GrantId, MemberId, OrganizationId, UserId } from "../Domain/Ids.js"
import { BoundOrganizationFields, boundOrganizationColumns } from "../Organizations/BoundOrganization.js"

/** A text[] literal of scopes: they come from a closed enumeration, so they need no escaping. */
const scopeArray = (scopes: ReadonlyArray<GrantScope>) => `{${scopes.join(",")}}`

/** A code as its exchange reads it, locked, with whether it has run out. */
export const CodeRow = Schema.Struct({
  codeHash: Schema.String,
  clientId: Schema.String,
  redirectUri: Schema.String,
  codeChallenge: Schema.String,
  resource: Schema.String,
  userId: UserId,
  organizationId: OrganizationId,
  scopes: Schema.Array(GrantScope),
  /** The membership the code was approved in (null: made before codes were bound to one). */
  memberId: Schema.NullOr(MemberId),
  used: Schema.Boolean,
  expired: Schema.Boolean,
  grantId: Schema.NullOr(GrantId)
})
export type CodeRow = typeof CodeRow.Type

/** A refresh token as a refresh reads it, locked with its grant. */
export const RefreshRow = Schema.Struct({
  id: Schema.String,
  grantId: GrantId,
  clientId: Schema.String,
  userId: UserId,
  organizationId: OrganizationId,
  resource: Schema.String,
  scopes: Schema.Array(GrantScope),
  /** The membership the grant belongs to (null: its person was not a member when grants were bound). */
  memberId: Schema.NullOr(MemberId),
  used: Schema.Boolean,
  /** Expired, revoked, or of a revoked grant. */
  dead: Schema.Boolean
})
export type RefreshRow = typeof RefreshRow.Type

/** A live access token with its grant: what authenticating a request needs. */
export const AccessRow = Schema.Struct({
  grantId: GrantId,
  clientId: Schema.String,
  userId: UserId,
  organizationId: OrganizationId,
  resource: Schema.String,
  scopes: Schema.Array(GrantScope),
  /** The membership the grant belongs to (null: made before grants were bound to one). */
  memberId: Schema.NullOr(MemberId),
  /** The person's role in the membership the grant belongs to (null: that membership has ended). */
  actsForRole: Schema.NullOr(Role),
  /** The organization's row (`boundOrganization`). */
  ...BoundOrganizationFields,
  /** The grant's last use was recorded more than a minute ago. */
  stale: Schema.Boolean
})
export type AccessRow = typeof AccessRow.Type

export class TokenRepo extends Effect.Service<TokenRepo>()("TokenRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const statements = yield* UntracedStatements

    const insertCode = repositoryCall(
      "TokenRepo.insertCode",
      (code: {
        readonly codeHash: string
        readonly clientId: string
        readonly redirectUri: string
        readonly codeChallenge: string
        readonly resource: string
        readonly userId: UserId
        readonly organizationId: OrganizationId
        readonly memberId: MemberId
        readonly scopes: ReadonlyArray<GrantScope>
        readonly ttlSeconds: number
      }) =>
        sql`
          INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, code_challenge, resource, user_id,
            organization_id, member_id, scopes, expires_at)
          VALUES (${code.codeHash}, ${code.clientId}, ${code.redirectUri}, ${code.codeChallenge}, ${code.resource},
            ${code.userId}, ${code.organizationId}, ${code.memberId}, ${scopeArray(code.scopes)}::text[],
            now() + make_interval(secs => ${code.ttlSeconds}::int))`.pipe(Effect.asVoid)
    )

    const lockCode = repositoryCall(
      "TokenRepo.lockCode",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: CodeRow,
        execute: (codeHash) => sql`
          SELECT code_hash, client_id, redirect_uri, code_challenge, resource, user_id, organization_id, member_id,
            scopes, used_at IS NOT NULL AS used, expires_at <= now() AS expired, grant_id
          FROM oauth_codes WHERE code_hash = ${codeHash} FOR UPDATE`
      })
    )

    const markCodeUsed = repositoryCall("TokenRepo.markCodeUsed", (codeHash: string) =>
      sql`UPDATE oauth_codes SET used_at = now() WHERE code_hash = ${codeHash}`.pipe(Effect.asVoid)
    )

    const setCodeGrant = repositoryCall("TokenRepo.setCodeGrant", (codeHash: string, grantId: GrantId) =>
      sql`UPDATE oauth_codes SET grant_id = ${grantId} WHERE code_hash = ${codeHash}`.pipe(Effect.asVoid)
    )

    const insertAccessToken = repositoryCall(
      "TokenRepo.insertAccessToken",
      (token: {
        readonly id: string
        readonly tokenHash: string
        readonly grantId: GrantId
        readonly scopes: ReadonlyArray<GrantScope>
        readonly ttlSeconds: number
      }) =>
        sql`
          INSERT INTO oauth_access_tokens (id, token_hash, grant_id, scopes, expires_at)
          VALUES (${token.id}, ${token.tokenHash}, ${token.grantId}, ${scopeArray(token.scopes)}::text[],
            now() + make_interval(secs => ${token.ttlSeconds}::int))`.pipe(Effect.asVoid)
    )

    const insertRefreshToken = repositoryCall(
      "TokenRepo.insertRefreshToken",
      (token: {
        readonly id: string
        readonly tokenHash: string
        readonly grantId: GrantId
        readonly ttlSeconds: number
      }) =>
        sql`
          INSERT INTO oauth_refresh_tokens (id, token_hash, grant_id, expires_at)
          VALUES (${token.id}, ${token.tokenHash}, ${token.grantId},
            now() + make_interval(secs => ${token.ttlSeconds}::int))`.pipe(Effect.asVoid)
    )

    const accessRows = rememberedRows(AccessRow, "grantId")
    const findAccess = (tokenHash: string) =>
      statements.first(
        sql`
        SELECT g.id AS grant_id, g.client_id, g.user_id, g.organization_id, g.resource, t.scopes, g.member_id,
          (SELECT m.role FROM members m WHERE m.id = g.member_id) AS acts_for_role,
          ${sql.literal(boundOrganizationColumns)},
          (g.last_used_at IS NULL OR g.last_used_at < now() - interval '1 minute') AS stale
        FROM oauth_access_tokens t JOIN oauth_grants g ON g.id = t.grant_id
          JOIN organizations o ON o.id = g.organization_id
        WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND t.expires_at > now()
          AND g.revoked_at IS NULL`,
        accessRows
      )

    /** The live access token with this hash, if any; records the grant's use at most once a minute. */
    const authenticateAccess = repositoryCall("TokenRepo.authenticateAccess", (tokenHash: string) =>
      Effect.tap(findAccess(tokenHash), (found) =>
        Option.isSome(found) && found.value.stale
          ? sql`UPDATE oauth_grants SET last_used_at = now() WHERE id = ${found.value.grantId}`
          : Effect.void
      )
    )

    const lockRefresh = repositoryCall(
      "TokenRepo.lockRefresh",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: RefreshRow,
        execute: (tokenHash) => sql`
          SELECT r.id, r.grant_id, g.client_id, g.user_id, g.organization_id, g.resource, g.scopes, g.member_id,
            r.used_at IS NOT NULL AS used,
            (r.expires_at <= now() OR r.revoked_at IS NOT NULL OR g.revoked_at IS NOT NULL) AS dead
          FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id
          WHERE r.token_hash = ${tokenHash}
          FOR UPDATE OF r`
      })
    )

    const markRefreshUsed = repositoryCall("TokenRepo.markRefreshUsed", (id: string) =>
      sql`UPDATE oauth_refresh_tokens SET used_at = now() WHERE id = ${id}`.pipe(Effect.asVoid)
    )

    const touchGrant = repositoryCall("TokenRepo.touchGrant", (grantId: GrantId) =>
      sql`UPDATE oauth_grants SET last_used_at = now() WHERE id = ${grantId}`.pipe(Effect.asVoid)
    )

    /** The grant of the client's refresh token with this hash, if any (revocation). */
    const grantOfRefresh = repositoryCall(
      "TokenRepo.grantOfRefresh",
      SqlSchema.findOne({
        Request: Schema.Struct({ tokenHash: Schema.String, clientId: Schema.String }),
        Result: Schema.Struct({ grantId: GrantId }),
        execute: ({ tokenHash, clientId }) => sql`
          SELECT r.grant_id FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id
          WHERE r.token_hash = ${tokenHash} AND g.client_id = ${clientId}`
      })
    )

    /** Revokes the client's access token with this hash, if it has one. */
    const revokeAccessOfClient = repositoryCall(
      "TokenRepo.revokeAccessOfClient",
      (tokenHash: string, clientId: string) =>
        sql`
          UPDATE oauth_access_tokens t SET revoked_at = now()
          FROM oauth_grants g
          WHERE t.token_hash = ${tokenHash} AND g.id = t.grant_id AND g.client_id = ${clientId}
            AND t.revoked_at IS NULL`.pipe(Effect.asVoid)
    )

    return {
      insertCode,
      lockCode,
      markCodeUsed,
      setCodeGrant,
      insertAccessToken,
      insertRefreshToken,
      authenticateAccess,
      lockRefresh,
      markRefreshUsed,
      touchGrant,
      grantOfRefresh,
      revokeAccessOfClient
    }
  })
}) {}

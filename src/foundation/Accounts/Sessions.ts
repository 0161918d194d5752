// Human sessions: opaque random tokens (256 bits) of which only a hash is stored, a sliding expiry,
// listing and revocation. The token itself exists only in the cookie and in the sign-in answer.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { builtOnce, rememberedRows } from "../Database/RememberedRows.js"
import { UntracedStatements } from "../Database/UntracedStatements.js"
import { Role } from "../Domain/Common.js"
import { MemberId, OrganizationId, SessionId, UserId } from "../Domain/Ids.js"
import { FoundationConfig } from "../FoundationConfig.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { hashSecret, newId, randomSecret } from "../Security/Secrets.js"

/** A live session as the account's session list shows it. */
export const SessionListing = Schema.Struct({
  id: SessionId,
  createdAt: Schema.DateFromSelf,
  lastSeenAt: Schema.DateFromSelf,
  expiresAt: Schema.DateFromSelf,
  userAgent: Schema.NullOr(Schema.String)
})
export type SessionListing = typeof SessionListing.Type

export interface AuthenticatedSession {
  readonly principal: SessionPrincipal
  /** True when this request moved the expiry forward, so the cookie should be sent again. */
  readonly renewed: boolean
}

const SessionRow = Schema.Struct({
  id: SessionId,
  userId: UserId,
  activeOrganizationId: Schema.NullOr(OrganizationId),
  memberships: Schema.Array(
    Schema.Struct({ organizationId: OrganizationId, name: Schema.String, role: Role, memberId: MemberId })
  ),
  stale: Schema.Boolean
})

/** Activity is recorded at most once a minute per session, so reads stay reads. */
const RENEW_AFTER_SECONDS = 60

export class Sessions extends Effect.Service<Sessions>()("Sessions", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const statements = yield* UntracedStatements
    const { sessionTtl, maxSessionsPerUser } = yield* FoundationConfig
    const ttlSeconds = Math.floor(Duration.toSeconds(sessionTtl))

    /**
     * Starts a session; returns the token to put in the cookie. An account holds at most
     * `maxSessionsPerUser` live sessions: past that, the least recently used end, so that the
     * account's session list (one page, by contract) stays bounded however often it signs in.
     */
    const create = repositoryCall(
      "Sessions.create",
      (userId: UserId, userAgent: string | null, activeOrganizationId: OrganizationId | null = null) =>
        Effect.gen(function* () {
          const token = randomSecret(32)
          const id = SessionId.make(newId("ses"))
          yield* sql`
            INSERT INTO sessions (id, token_hash, user_id, active_organization_id, user_agent, expires_at)
            VALUES (${id}, ${hashSecret(token)}, ${userId}, ${activeOrganizationId}, ${userAgent},
              now() + make_interval(secs => ${ttlSeconds}::int))`
          yield* sql`
            UPDATE sessions SET revoked_at = now()
            WHERE id IN (
              SELECT id FROM sessions
              WHERE user_id = ${userId} AND id <> ${id} AND revoked_at IS NULL AND expires_at > now()
              ORDER BY last_seen_at DESC, created_at DESC, id DESC
              OFFSET ${maxSessionsPerUser - 1})`
          return { id, token }
        })
    )

    const sessionRows = rememberedRows(SessionRow, "id")
    const findLive = (tokenHash: string) =>
      statements.first(
        sql`
        SELECT s.id, s.user_id,
          (SELECT m.organization_id FROM members m
            WHERE m.organization_id = s.active_organization_id AND m.user_id = s.user_id) AS active_organization_id,
          (SELECT coalesce(json_agg(json_build_object('organizationId', o.id, 'name', o.name, 'role', m.role,
              'memberId', m.id) ORDER BY m.created_at, o.id), '[]')
            FROM members m JOIN organizations o ON o.id = m.organization_id
            WHERE m.user_id = s.user_id) AS memberships,
          s.last_seen_at < now() - make_interval(secs => ${RENEW_AFTER_SECONDS}::int) AS stale
        FROM sessions s
        WHERE s.token_hash = ${tokenHash} AND s.revoked_at IS NULL AND s.expires_at > now()`,
        sessionRows
      )

    /**
     * The live session holding `token`, if any, with the user's memberships (one statement). The
     * active organization is reported only while the user is still a member of it.
     */
    // A row read again is the same remembered row (`sessionRows`): what it says is built once.
    const sessionOf = builtOnce(
      (row: typeof SessionRow.Type): AuthenticatedSession => ({
        principal: {
          kind: "session",
          sessionId: row.id,
          userId: row.userId,
          activeOrganizationId: row.activeOrganizationId,
          memberships: row.memberships
        },
        renewed: row.stale
      })
    )

    const authenticate = repositoryCall("Sessions.authenticate", (token: string) =>
      Effect.gen(function* () {
        const found = yield* findLive(hashSecret(token))
        if (Option.isNone(found)) return Option.none<AuthenticatedSession>()
        const row = found.value
        if (row.stale) {
          yield* sql`
            UPDATE sessions SET last_seen_at = now(), expires_at = now() + make_interval(secs => ${ttlSeconds}::int)
            WHERE id = ${row.id}`
        }
        return Option.some(sessionOf(row))
      })
    )

    /** The user's live sessions, newest first. */
    const list = repositoryCall(
      "Sessions.list",
      SqlSchema.findAll({
        Request: UserId,
        Result: SessionListing,
        execute: (userId) => sql`
          SELECT id, created_at, last_seen_at, expires_at, user_agent FROM sessions
          WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > now()
          ORDER BY created_at DESC, id DESC`
      })
    )

    /** Revokes one of the user's live sessions; false when it has none by that id. */
    const revoke = repositoryCall("Sessions.revoke", (userId: UserId, sessionId: SessionId) =>
      Effect.map(
        sql`
          UPDATE sessions SET revoked_at = now()
          WHERE id = ${sessionId} AND user_id = ${userId} AND revoked_at IS NULL AND expires_at > now()
          RETURNING id`,
        (rows) => rows.length > 0
      )
    )

    /** Revokes every live session of the user but `keepSessionId`. */
    const revokeOthers = repositoryCall("Sessions.revokeOthers", (userId: UserId, keepSessionId: SessionId) =>
      sql`
        UPDATE sessions SET revoked_at = now()
        WHERE user_id = ${userId} AND id <> ${keepSessionId} AND revoked_at IS NULL`.pipe(Effect.asVoid)
    )

    const setActiveOrganization = repositoryCall(
      "Sessions.setActiveOrganization",
      (sessionId: SessionId, organizationId: OrganizationId | null) =>
        sql`UPDATE sessions SET active_organization_id = ${organizationId} WHERE id = ${sessionId}`.pipe(
          Effect.asVoid
        )
    )

    /** Forgets the organization as the active one of the user's sessions (the user left it). */
    const clearActiveOrganization = repositoryCall(
      "Sessions.clearActiveOrganization",
      (userId: UserId, organizationId: OrganizationId) =>
        sql`
          UPDATE sessions SET active_organization_id = NULL
          WHERE user_id = ${userId} AND active_organization_id = ${organizationId}`.pipe(Effect.asVoid)
    )

    return {
      create,
      authenticate,
      list,
      revoke,
      revokeOthers,
      setActiveOrganization,
      clearActiveOrganization,
      ttl: sessionTtl
    }
  })
}) {}

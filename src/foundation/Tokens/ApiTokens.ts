// Organization API tokens (extensions §5): shown once at creation, stored as a hash with a short
// prefix that identifies them in lists, bound to one organization with scopes and an expiry, acting
// for the person who created them (removing that person from the organization revokes them).
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { keysetCondition, PageCursors } from "../Database/KeysetPage.js"
import { builtOnce, rememberedRows } from "../Database/RememberedRows.js"
import { UntracedStatements } from "../Database/UntracedStatements.js"
import { type PageRequest, Role, Scope } from "../Domain/Common.js"
import { TokenNotFound } from "../Domain/Errors.js"
import { OrganizationId, TokenId, UserId } from "../Domain/Ids.js"
import {
  BoundOrganizationFields,
  boundOrganization,
  boundOrganizationColumns
} from "../Organizations/BoundOrganization.js"
import type { ApiKeyPrincipal } from "../Security/Principal.js"
import { hashSecret, newId, randomSecret } from "../Security/Secrets.js"
import { traced } from "../Traced.js"

/** A token as the organization's token list shows it (never the token itself). */
export const TokenListing = Schema.Struct({
  id: TokenId,
  name: Schema.String,
  scopes: Schema.Array(Scope),
  prefix: Schema.String,
  createdAt: Schema.DateFromSelf,
  expiresAt: Schema.DateFromSelf,
  lastUsedAt: Schema.NullOr(Schema.DateFromSelf),
  createdBy: Schema.Struct({ id: UserId, name: Schema.String })
})
export type TokenListing = typeof TokenListing.Type

/** The list's rows: the creator's id and name come as columns of the join. */
const ListingRow = Schema.Struct({
  ...TokenListing.fields,
  createdBy: UserId,
  creatorName: Schema.String
})
const decodeListings = Schema.decodeUnknown(Schema.Array(ListingRow))

const TokenRow = Schema.Struct({
  id: TokenId,
  organizationId: OrganizationId,
  scopes: Schema.Array(Scope),
  createdBy: UserId,
  actsForRole: Schema.NullOr(Role),
  ...BoundOrganizationFields,
  stale: Schema.Boolean
})

/** Every token starts with this, so secret scanners and people can recognise one. */
export const TOKEN_PREFIX = "fst_"
/** The leading characters kept in clear to tell tokens apart in lists. */
const SHOWN_LENGTH = TOKEN_PREFIX.length + 8

export class ApiTokens extends Effect.Service<ApiTokens>()("ApiTokens", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const statements = yield* UntracedStatements
    const cursors = yield* PageCursors

    const create = repositoryCall(
      "ApiTokens.create",
      (input: {
        readonly organizationId: OrganizationId
        readonly createdBy: UserId
        readonly name: string
        readonly scopes: ReadonlyArray<Scope>
        readonly expiresInDays: number
      }) => {
        const token = `${TOKEN_PREFIX}${randomSecret(40)}`
        const id = TokenId.make(newId("tok"))
        const scopes = [...new Set(input.scopes)].sort()
        // Scopes come from a closed enumeration, so this array literal needs no escaping.
        const scopesLiteral = `{${scopes.join(",")}}`
        return SqlSchema.single({
          Request: Schema.Void,
          Result: Schema.Struct({ createdAt: Schema.DateFromSelf, expiresAt: Schema.DateFromSelf }),
          execute: () => sql`
            INSERT INTO api_tokens (id, organization_id, name, scopes, prefix, token_hash, created_by, expires_at)
            VALUES (${id}, ${input.organizationId}, ${input.name}, ${scopesLiteral}::text[], ${token.slice(0, SHOWN_LENGTH)},
              ${hashSecret(token)}, ${input.createdBy}, now() + make_interval(days => ${input.expiresInDays}::int))
            RETURNING created_at, expires_at`
        })(undefined).pipe(
          Effect.catchTag("NoSuchElementException", (error) => Effect.die(error)),
          Effect.map((row) => ({
            id,
            name: input.name,
            scopes,
            createdAt: row.createdAt,
            expiresAt: row.expiresAt,
            token
          }))
        )
      }
    )

    const tokenRows = rememberedRows(TokenRow, "id")
    const findLive = (tokenHash: string) =>
      statements.first(
        sql`
        SELECT t.id, t.organization_id, t.scopes, t.created_by,
          (SELECT m.role FROM members m
            WHERE m.user_id = t.created_by AND m.organization_id = t.organization_id) AS acts_for_role,
          ${sql.literal(boundOrganizationColumns)},
          (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS stale
        FROM api_tokens t JOIN organizations o ON o.id = t.organization_id
        WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND t.expires_at > now()
          AND t.created_by IS NOT NULL`,
        tokenRows
      )

    /**
     * The live token, if any, with its creator's current role and its organization (one statement,
     * so a read of that organization needs no other query); records its use at most once a minute. A token whose creator's
     * account is gone acts for no one, so it is no token.
     */
    // A row read again is the same remembered row (`tokenRows`): its principal is built once.
    const principalOf = builtOnce(
      (row: typeof TokenRow.Type): ApiKeyPrincipal => ({
        kind: "apiKey",
        tokenId: row.id,
        organizationId: row.organizationId,
        scopes: row.scopes,
        actsFor: row.createdBy,
        actsForRole: row.actsForRole,
        organization: boundOrganization(row)
      })
    )

    const authenticate = repositoryCall("ApiTokens.authenticate", (token: string) =>
      Effect.gen(function* () {
        const found = yield* findLive(hashSecret(token))
        if (Option.isNone(found)) return Option.none<ApiKeyPrincipal>()
        const row = found.value
        if (row.stale) yield* sql`UPDATE api_tokens SET last_used_at = now() WHERE id = ${row.id}`
        return Option.some(principalOf(row))
      })
    )

    /** The organization's tokens that are not revoked (expired ones included), newest first. */
    const list = traced("ApiTokens.list", (organizationId: OrganizationId, page: PageRequest) =>
      cursors.readPage(
        `tokens:${organizationId}`,
        page,
        repositoryCall("ApiTokens.page", (after, limit) =>
          Effect.flatMap(
            sql`
              SELECT t.id, t.name, t.scopes, t.prefix, t.created_at, t.expires_at, t.last_used_at,
                t.created_by, u.name AS creator_name
              FROM api_tokens t JOIN users u ON u.id = t.created_by
              WHERE t.organization_id = ${organizationId} AND t.revoked_at IS NULL
                AND ${keysetCondition(sql, after, "before", "t.")}
              ORDER BY t.created_at DESC, t.id DESC
              LIMIT ${limit}`,
            decodeListings
          )
        ),
        ({ creatorName, createdBy, ...row }): TokenListing => ({
          ...row,
          createdBy: { id: createdBy, name: creatorName }
        })
      )
    )

    /** Revokes the tokens `userId` created in the organization (they left it, or were removed). */
    const revokeCreatedBy = repositoryCall(
      "ApiTokens.revokeCreatedBy",
      (organizationId: OrganizationId, userId: UserId) =>
        sql`
          UPDATE api_tokens SET revoked_at = now()
          WHERE organization_id = ${organizationId} AND created_by = ${userId} AND revoked_at IS NULL`.pipe(
          Effect.asVoid
        )
    )

    const revoke = repositoryCall("ApiTokens.revoke", (organizationId: OrganizationId, tokenId: TokenId) =>
      Effect.flatMap(
        sql`
          UPDATE api_tokens SET revoked_at = now()
          WHERE id = ${tokenId} AND organization_id = ${organizationId} AND revoked_at IS NULL RETURNING id`,
        (rows) => (rows.length > 0 ? Effect.void : Effect.fail(new TokenNotFound()))
      )
    )

    return { create, authenticate, list, revoke, revokeCreatedBy }
  })
}) {}

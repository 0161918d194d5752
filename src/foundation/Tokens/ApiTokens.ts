// Organization API tokens (extensions §5): shown once at creation, stored as a hash with a short
// prefix that identifies them in lists, bound to one organization with scopes and an expiry.
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { NotFound } from "../../http/ApiError.js"
import { keysetCondition, readPage } from "../Database/KeysetPage.js"
import type { PageRequest, Scope } from "../Domain/Common.js"
import type { ApiKeyPrincipal } from "../Security/Principal.js"
import { hashSecret, newId, randomSecret } from "../Security/Secrets.js"

export interface TokenListing {
  readonly id: string
  readonly name: string
  readonly scopes: ReadonlyArray<Scope>
  readonly prefix: string
  readonly createdAt: Date
  readonly expiresAt: Date
  readonly lastUsedAt: Date | null
}

interface TokenRow {
  readonly id: string
  readonly organizationId: string
  readonly scopes: ReadonlyArray<Scope>
  readonly stale: boolean
}

/** Every token starts with this, so secret scanners and people can recognise one. */
export const TOKEN_PREFIX = "fst_"
/** The leading characters kept in clear to tell tokens apart in lists. */
const SHOWN_LENGTH = TOKEN_PREFIX.length + 8

export class ApiTokens extends Effect.Service<ApiTokens>()("ApiTokens", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const create = (input: {
      readonly organizationId: string
      readonly createdBy: string
      readonly name: string
      readonly scopes: ReadonlyArray<Scope>
      readonly expiresInDays: number
    }) =>
      Effect.gen(function* () {
        const token = `${TOKEN_PREFIX}${randomSecret(40)}`
        const id = newId("tok")
        const scopes = [...new Set(input.scopes)].sort()
        // Scopes come from a closed enumeration, so this array literal needs no escaping.
        const scopesLiteral = `{${scopes.join(",")}}`
        const [row] = yield* sql<{ createdAt: Date; expiresAt: Date }>`
          INSERT INTO api_tokens (id, organization_id, name, scopes, prefix, token_hash, created_by, expires_at)
          VALUES (${id}, ${input.organizationId}, ${input.name}, ${scopesLiteral}::text[], ${token.slice(0, SHOWN_LENGTH)},
            ${hashSecret(token)}, ${input.createdBy}, now() + make_interval(days => ${input.expiresInDays}::int))
          RETURNING created_at, expires_at`
        if (row === undefined) return yield* Effect.dieMessage("INSERT … RETURNING gave no row")
        return { id, name: input.name, scopes, createdAt: row.createdAt, expiresAt: row.expiresAt, token }
      })

    /** The live token, if any; records its use at most once a minute. */
    const authenticate = (token: string): Effect.Effect<Option.Option<ApiKeyPrincipal>, SqlError> =>
      Effect.gen(function* () {
        const [row] = yield* sql<TokenRow>`
          SELECT id, organization_id, scopes,
            (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') AS stale
          FROM api_tokens
          WHERE token_hash = ${hashSecret(token)} AND revoked_at IS NULL AND expires_at > now()`
        if (row === undefined) return Option.none()
        if (row.stale) yield* sql`UPDATE api_tokens SET last_used_at = now() WHERE id = ${row.id}`
        return Option.some({
          kind: "apiKey",
          tokenId: row.id,
          organizationId: row.organizationId,
          scopes: row.scopes
        })
      })

    /** The organization's tokens that are not revoked (expired ones included), newest first. */
    const list = (organizationId: string, page: PageRequest) =>
      readPage(
        page,
        (after, limit) => sql<TokenListing>`
          SELECT id, name, scopes, prefix, created_at, expires_at, last_used_at FROM api_tokens
          WHERE organization_id = ${organizationId} AND revoked_at IS NULL
            AND ${keysetCondition(sql, after, "before")}
          ORDER BY created_at DESC, id DESC
          LIMIT ${limit}`,
        (row) => row
      )

    const revoke = (organizationId: string, tokenId: string) =>
      Effect.flatMap(
        sql`
          UPDATE api_tokens SET revoked_at = now()
          WHERE id = ${tokenId} AND organization_id = ${organizationId} AND revoked_at IS NULL RETURNING id`,
        (rows) =>
          rows.length > 0 ? Effect.void : Effect.fail(new NotFound({ message: "The token was not found." }))
      )

    return { create, authenticate, list, revoke }
  })
}) {}

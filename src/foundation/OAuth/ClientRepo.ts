// SQL for OAuth clients: registrations, Client ID Metadata Documents kept until their cache time
// runs out (so every instance shares one fetch), and the last use that lets housekeeping forget
// registrations nobody ever used.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { repositoryCall } from "../Database/DatabaseEdge.js"
import { OAuthClient, type TokenEndpointAuthMethod } from "./OAuthClient.js"

const columns = "id, kind, name, redirect_uris, token_endpoint_auth_method, secret_hash"

/** A text[] literal of URIs: each element quoted, with quotes and backslashes escaped. */
const textArray = (values: ReadonlyArray<string>) =>
  `{${values.map((value) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`

export class ClientRepo extends Effect.Service<ClientRepo>()("ClientRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)

    /** The client, unless it is a metadata document whose cache time has run out. */
    const findLive = SqlSchema.findOne({
      Request: Schema.String,
      Result: OAuthClient,
      execute: (id) => sql`
        SELECT ${select} FROM oauth_clients
        WHERE id = ${id} AND (document_expires_at IS NULL OR document_expires_at > now())`
    })

    const insertRegistered = repositoryCall(
      "ClientRepo.insertRegistered",
      (client: {
        readonly id: string
        readonly name: string | null
        readonly redirectUris: ReadonlyArray<string>
        readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod
        readonly secretHash: string | null
        readonly metadata: unknown
      }) =>
        sql`
          INSERT INTO oauth_clients (id, kind, name, redirect_uris, token_endpoint_auth_method, secret_hash, metadata)
          VALUES (${client.id}, 'registered', ${client.name}, ${textArray(client.redirectUris)}::text[],
            ${client.tokenEndpointAuthMethod}, ${client.secretHash}, ${JSON.stringify(client.metadata)}::jsonb)`.pipe(
          Effect.asVoid
        )
    )

    /** Stores (or refreshes) a fetched metadata document's client, public by definition. */
    const saveDocument = repositoryCall(
      "ClientRepo.saveDocument",
      (client: {
        readonly id: string
        readonly name: string | null
        readonly redirectUris: ReadonlyArray<string>
        readonly metadata: unknown
        readonly cacheSeconds: number
      }) =>
        SqlSchema.single({
          Request: Schema.Void,
          Result: OAuthClient,
          execute: () => sql`
            INSERT INTO oauth_clients (id, kind, name, redirect_uris, token_endpoint_auth_method, metadata, document_expires_at)
            VALUES (${client.id}, 'document', ${client.name}, ${textArray(client.redirectUris)}::text[], 'none',
              ${JSON.stringify(client.metadata)}::jsonb, now() + make_interval(secs => ${client.cacheSeconds}::int))
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, redirect_uris = EXCLUDED.redirect_uris,
              metadata = EXCLUDED.metadata, document_expires_at = EXCLUDED.document_expires_at
              WHERE oauth_clients.kind = 'document'
            RETURNING ${select}`
        })(undefined).pipe(
          // Only a registered client's row can refuse the update, and registered ids are never URLs.
          Effect.catchTag("NoSuchElementException", (error) => Effect.die(error))
        )
    )

    const touch = repositoryCall("ClientRepo.touch", (id: string) =>
      sql`
        UPDATE oauth_clients SET last_used_at = now()
        WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 hour')`.pipe(
        Effect.asVoid
      )
    )

    return {
      findLive: repositoryCall("ClientRepo.findLive", findLive),
      insertRegistered,
      saveDocument,
      touch
    }
  })
}) {}

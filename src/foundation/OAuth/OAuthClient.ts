// An OAuth client as the service knows it: one registered here (RFC 7591) or described by a Client
// ID Metadata Document whose URL is its id. Only the hash of a confidential client's secret is kept.
import * as Schema from "effect/Schema"

export const ClientKind = Schema.Literal("registered", "document")
export type ClientKind = typeof ClientKind.Type

/** How a client authenticates at the token and revocation endpoints. */
export const TokenEndpointAuthMethod = Schema.Literal("none", "client_secret_basic")
export type TokenEndpointAuthMethod = typeof TokenEndpointAuthMethod.Type

export class OAuthClient extends Schema.Class<OAuthClient>("OAuthClient")({
  id: Schema.String,
  kind: ClientKind,
  /** What the client calls itself: its own claim, shown to people as unverified. */
  name: Schema.NullOr(Schema.String),
  redirectUris: Schema.Array(Schema.String),
  tokenEndpointAuthMethod: TokenEndpointAuthMethod,
  secretHash: Schema.NullOr(Schema.String)
}) {}

/** Prefix of the ids of clients registered here (a metadata document's id is its URL). */
export const REGISTERED_CLIENT_PREFIX = "cli"

/**
 * The longest client id accepted: `context.credential` answers it as a string of 1 to 160 characters
 * (base contract §4), so a metadata document's URL must fit that too.
 */
export const MAX_CLIENT_ID_LENGTH = 160

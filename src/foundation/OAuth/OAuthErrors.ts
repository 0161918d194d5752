// The failures of the OAuth protocol, named as its RFCs name them (RFC 6749 §4.1.2.1 and §5.2, RFC
// 7591 §3.2.2, RFC 8707 §2): each carries a description for the client's developer and becomes
// `{ error, error_description }` in OAuth's own format (OAuthAnswers.ts), never the envelope.
// Descriptions are our own fixed sentences: no secret or token ever goes into one.
import * as Schema from "effect/Schema"

const description = { description: Schema.String }

/** A parameter is missing, repeated, malformed, or the body is not form-encoded. */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", description) {}

/** The client is unknown or failed to authenticate (401; `WWW-Authenticate: Basic` when Basic was used). */
export class InvalidClient extends Schema.TaggedError<InvalidClient>()("InvalidClient", {
  ...description,
  usedBasic: Schema.Boolean
}) {}

/** The code or refresh token is unknown, expired, used, revoked, or was issued to another client. */
export class InvalidGrant extends Schema.TaggedError<InvalidGrant>()("InvalidGrant", description) {}

export class UnsupportedGrantType extends Schema.TaggedError<UnsupportedGrantType>()(
  "UnsupportedGrantType",
  description
) {}

export class InvalidScope extends Schema.TaggedError<InvalidScope>()("InvalidScope", description) {}

/** RFC 8707: the `resource` is not one this service serves, or not the one the grant is for. */
export class InvalidTarget extends Schema.TaggedError<InvalidTarget>()("InvalidTarget", description) {}

export class UnsupportedResponseType extends Schema.TaggedError<UnsupportedResponseType>()(
  "UnsupportedResponseType",
  description
) {}

/** The person declined. */
export class AccessDenied extends Schema.TaggedError<AccessDenied>()("AccessDenied", description) {}

/** RFC 7591: a redirect URI a client may not register. */
export class InvalidRedirectUri extends Schema.TaggedError<InvalidRedirectUri>()(
  "InvalidRedirectUri",
  description
) {}

/** RFC 7591: client metadata this server does not accept. */
export class InvalidClientMetadata extends Schema.TaggedError<InvalidClientMetadata>()(
  "InvalidClientMetadata",
  description
) {}

export type OAuthProtocolError =
  | InvalidRequest
  | InvalidClient
  | InvalidGrant
  | UnsupportedGrantType
  | InvalidScope
  | InvalidTarget
  | UnsupportedResponseType
  | AccessDenied
  | InvalidRedirectUri
  | InvalidClientMetadata

/** The `error` code of each failure. */
export const errorCodes: Record<OAuthProtocolError["_tag"], string> = {
  InvalidRequest: "invalid_request",
  InvalidClient: "invalid_client",
  InvalidGrant: "invalid_grant",
  UnsupportedGrantType: "unsupported_grant_type",
  InvalidScope: "invalid_scope",
  InvalidTarget: "invalid_target",
  UnsupportedResponseType: "unsupported_response_type",
  AccessDenied: "access_denied",
  InvalidRedirectUri: "invalid_redirect_uri",
  InvalidClientMetadata: "invalid_client_metadata"
}

/**
 * An authorization request that cannot be sent back to its client: no client, an unknown one, or a
 * redirect URI that is missing or not the client's. It is shown to the person as a page and never
 * redirected to (extensions §8, RFC 6749 §4.1.2.1).
 */
export class UnredirectableRequest extends Schema.TaggedError<UnredirectableRequest>()(
  "UnredirectableRequest",
  description
) {}

/**
 * An authorization request whose client and redirect URI are known, refused with an OAuth error that
 * is sent back to the client at that redirect URI, with `state` and `iss` (RFC 6749 §4.1.2.1, RFC 9207).
 */
export class RedirectedError extends Schema.TaggedError<RedirectedError>()("RedirectedError", {
  redirectUri: Schema.String,
  state: Schema.NullOr(Schema.String),
  code: Schema.String,
  description: Schema.String
}) {}

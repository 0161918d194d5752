// The two metadata documents clients discover the service with: the authorization server's (RFC
// 8414, with the fields extensions §8 names) and each protected resource's (RFC 9728), whose
// resources come from the registry every resource declares itself in.
import * as Schema from "effect/Schema"
import type { ProtectedResource } from "../../http/ProtectedResources.js"

export const AuthorizationServerMetadata = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  registration_endpoint: Schema.String,
  revocation_endpoint: Schema.String,
  response_types_supported: Schema.Array(Schema.String),
  response_modes_supported: Schema.Array(Schema.String),
  grant_types_supported: Schema.Array(Schema.String),
  code_challenge_methods_supported: Schema.Array(Schema.String),
  token_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  revocation_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  scopes_supported: Schema.Array(Schema.String),
  client_id_metadata_document_supported: Schema.Boolean,
  authorization_response_iss_parameter_supported: Schema.Boolean,
  service_documentation: Schema.String
})
export type AuthorizationServerMetadata = typeof AuthorizationServerMetadata.Type

export const ProtectedResourceMetadata = Schema.Struct({
  resource: Schema.String,
  authorization_servers: Schema.Array(Schema.String),
  scopes_supported: Schema.Array(Schema.String),
  bearer_methods_supported: Schema.Array(Schema.String),
  resource_name: Schema.String,
  resource_documentation: Schema.optional(Schema.String)
})
export type ProtectedResourceMetadata = typeof ProtectedResourceMetadata.Type

/** The endpoints' paths, at the origin's root (extensions §8). */
export const oauthPaths = {
  serverMetadata: "/.well-known/oauth-authorization-server",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
  signIn: "/sign-in"
} as const

/** The issuer is the public origin; every scope any resource understands is listed. */
export const authorizationServerMetadata = (
  issuer: string,
  resources: ReadonlyArray<ProtectedResource>
): AuthorizationServerMetadata => ({
  issuer,
  authorization_endpoint: `${issuer}${oauthPaths.authorize}`,
  token_endpoint: `${issuer}${oauthPaths.token}`,
  registration_endpoint: `${issuer}${oauthPaths.register}`,
  revocation_endpoint: `${issuer}${oauthPaths.revoke}`,
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: ["S256"],
  token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
  revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
  scopes_supported: [...new Set(resources.flatMap((resource) => resource.scopes))].sort(),
  client_id_metadata_document_supported: true,
  authorization_response_iss_parameter_supported: true,
  service_documentation: `${issuer}/api/v1/docs`
})

export const protectedResourceMetadata = (
  issuer: string,
  resource: ProtectedResource
): ProtectedResourceMetadata => ({
  resource: resource.resource,
  authorization_servers: [issuer],
  scopes_supported: resource.scopes,
  bearer_methods_supported: ["header"],
  resource_name: resource.name,
  ...(resource.documentation === undefined
    ? {}
    : { resource_documentation: `${issuer}${resource.documentation}` })
})

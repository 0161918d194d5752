// `context.credential`: who the calling credential is, in one of three shapes told apart by
// `principalKind` (base contract §4).
import * as Schema from "effect/Schema"
import { GrantScope, Role } from "./Common.js"
import { Id, OrganizationId } from "./Ids.js"

export class SessionCredentialContext extends Schema.Class<SessionCredentialContext>(
  "SessionCredentialContext"
)({
  principalKind: Schema.Literal("session"),
  activeOrganizationId: Schema.NullOr(OrganizationId),
  organizations: Schema.Array(Schema.Struct({ id: OrganizationId, name: Schema.String, role: Role }))
}) {}

const OrganizationRef = Schema.Struct({ id: OrganizationId, name: Schema.String })

export class ApiKeyCredentialContext extends Schema.Class<ApiKeyCredentialContext>("ApiKeyCredentialContext")(
  {
    principalKind: Schema.Literal("apiKey"),
    organization: OrganizationRef,
    grantedScopes: Schema.Array(GrantScope)
  }
) {}

export class OAuthCredentialContext extends Schema.Class<OAuthCredentialContext>("OAuthCredentialContext")({
  principalKind: Schema.Literal("oauth"),
  organization: OrganizationRef,
  grantedScopes: Schema.Array(GrantScope),
  clientId: Id
}) {}

export const CredentialContext = Schema.Union(
  SessionCredentialContext,
  ApiKeyCredentialContext,
  OAuthCredentialContext
)
export type CredentialContext = typeof CredentialContext.Type

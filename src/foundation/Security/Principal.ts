// Who is calling: the credential a request was authenticated with. Handlers read it from
// `CurrentPrincipal` (endpoints open to bearer tokens and sessions) or `CurrentSession` (session-only
// endpoints). OAuth grants have their shape already so that adding them later changes no handler.
import * as Context from "effect/Context"
import type { Scope } from "../Domain/Common.js"
import type { OrganizationId, SessionId, TokenId, UserId } from "../Domain/Ids.js"

/** A signed-in person (the session cookie). */
export interface SessionPrincipal {
  readonly kind: "session"
  readonly sessionId: SessionId
  readonly userId: UserId
  /** The organization the session works in, when it still belongs to it. */
  readonly activeOrganizationId: OrganizationId | null
}

/** An organization API token: bound to one organization, limited to its scopes. */
export interface ApiKeyPrincipal {
  readonly kind: "apiKey"
  readonly tokenId: TokenId
  readonly organizationId: OrganizationId
  readonly scopes: ReadonlyArray<Scope>
}

/** A delegated OAuth access token (not issued yet by this service). */
export interface OAuthPrincipal {
  readonly kind: "oauth"
  readonly grantId: string
  readonly clientId: string
  readonly organizationId: OrganizationId
  readonly scopes: ReadonlyArray<Scope>
}

export type Principal = SessionPrincipal | ApiKeyPrincipal | OAuthPrincipal
export type BearerPrincipal = ApiKeyPrincipal | OAuthPrincipal

export class CurrentPrincipal extends Context.Tag("CurrentPrincipal")<CurrentPrincipal, Principal>() {}

export class CurrentSession extends Context.Tag("CurrentSession")<CurrentSession, SessionPrincipal>() {}

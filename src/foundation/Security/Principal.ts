// Who is calling: the credential a request was authenticated with. Handlers read it from
// `CurrentPrincipal` (endpoints open to bearer tokens and sessions) or `CurrentSession` (session-only
// endpoints). Bearer credentials (API tokens, OAuth access tokens) act for a person: `actsFor` is whose
// current membership and role bound what they may do (extensions §5, §8).
import * as Context from "effect/Context"
import type { GrantScope, Role, Scope } from "../Domain/Common.js"
import type { GrantId, MemberId, OrganizationId, SessionId, TokenId, UserId } from "../Domain/Ids.js"
import type { Organization } from "../Domain/Organization.js"

/** A signed-in person (the session cookie). */
export interface SessionPrincipal {
  readonly kind: "session"
  readonly sessionId: SessionId
  readonly userId: UserId
  /** The organization the session works in, when it still belongs to it. */
  readonly activeOrganizationId: OrganizationId | null
  /**
   * The user's memberships as read with the session, in the order they joined: reads judge by them
   * without another query; writes read the membership again under their lock.
   */
  readonly memberships: ReadonlyArray<SessionMembership>
}

/** One of a session user's memberships, with the organization's name. */
export interface SessionMembership {
  readonly organizationId: OrganizationId
  readonly name: string
  readonly role: Role
  readonly memberId: MemberId
}

/** An organization API token: bound to one organization, limited to its scopes, acting for its creator. */
export interface ApiKeyPrincipal {
  readonly kind: "apiKey"
  readonly tokenId: TokenId
  readonly organizationId: OrganizationId
  readonly scopes: ReadonlyArray<Scope>
  /** The token's creator. */
  readonly actsFor: UserId
  /** Their role in the organization, read with the token (null: no longer a member). */
  readonly actsForRole: Role | null
  /** The organization the credential is bound to, as read with the token. */
  readonly organization: Organization
}

/** A delegated OAuth access token: one grant (connection) of a client, for the person who approved it. */
export interface OAuthPrincipal {
  readonly kind: "oauth"
  readonly grantId: GrantId
  readonly clientId: string
  readonly organizationId: OrganizationId
  /** The access token's scopes (the grant's, or fewer when a refresh narrowed them). */
  readonly scopes: ReadonlyArray<GrantScope>
  /** The person who approved the grant. */
  readonly actsFor: UserId
  /**
   * The membership the grant was made in (null: made before grants were bound to one). The grant
   * acts only while that membership lasts: a person removed and invited back is a new membership.
   */
  readonly actsAsMember: MemberId | null
  /** Their role in that membership, read with the token (null: it has ended). */
  readonly actsForRole: Role | null
  /** The organization the credential is bound to, as read with the token. */
  readonly organization: Organization
}

export type Principal = SessionPrincipal | ApiKeyPrincipal | OAuthPrincipal
export type BearerPrincipal = ApiKeyPrincipal | OAuthPrincipal

export class CurrentPrincipal extends Context.Tag("CurrentPrincipal")<CurrentPrincipal, Principal>() {}

export class CurrentSession extends Context.Tag("CurrentSession")<CurrentSession, SessionPrincipal>() {}

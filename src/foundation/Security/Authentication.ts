// The two authentication middlewares of the foundation API, as declared on endpoints and groups.
// `CredentialAuth` accepts a bearer token or a session; `SessionAuth` only a session (a valid bearer
// token there is 403: the caller is known but may not act with it). Their implementation is in
// `AuthenticationLive.ts`; the rule for mixed credentials is written there.
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import { errorDoc } from "../../http/ApiError.js"
import type { Scope } from "../Domain/Common.js"
import {
  DatabaseUnavailable,
  ForeignOrigin,
  RateLimited,
  SessionRequired,
  Unauthenticated
} from "../Domain/Errors.js"
import { CurrentPrincipal, CurrentSession } from "./Principal.js"

const AuthenticationFailure = Schema.Union(
  errorDoc(Unauthenticated),
  errorDoc(ForeignOrigin),
  errorDoc(SessionRequired),
  errorDoc(RateLimited),
  errorDoc(DatabaseUnavailable)
)

export class CredentialAuth extends HttpApiMiddleware.Tag<CredentialAuth>()("CredentialAuth", {
  provides: CurrentPrincipal,
  failure: AuthenticationFailure
}) {}

export class SessionAuth extends HttpApiMiddleware.Tag<SessionAuth>()("SessionAuth", {
  provides: CurrentSession,
  failure: AuthenticationFailure
}) {}

/**
 * The scope a bearer credential needs on an endpoint, for the OpenAPI document's `oauth2`
 * requirement (the check itself is OrganizationAccess's, with the same scope).
 */
export class RequiredScope extends Context.Tag("RequiredScope")<RequiredScope, Scope>() {}

/** The session cookie's name (extensions §1). */
export const SESSION_COOKIE = "__Secure-service.session_token"

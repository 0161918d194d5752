// What the foundation records about a caller: its address (for rate limits, by the server's one rule,
// TRUST_PROXY included) and user agent (shown in the session list), plus the check that public
// writes do not come from a foreign page.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import type { ClientAddressRule } from "../../http/ClientAddress.js"
import type { ClientInfo } from "../Accounts/Accounts.js"
import { ForeignOrigin } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"

const MAX_USER_AGENT = 512

export const clientInfo = (
  addresses: ClientAddressRule
): Effect.Effect<ClientInfo, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    // Stored with the session, so it must be text PostgreSQL accepts: Node's parser refuses a NUL in
    // a header already, and one that slipped through would only be dropped, never a failed sign-in.
    const userAgent = request.headers["user-agent"]?.replaceAll("\u0000", "").slice(0, MAX_USER_AGENT)
    return {
      address: addresses.of(request),
      userAgent: userAgent === undefined || userAgent === "" ? null : userAgent
    }
  })

/**
 * Sign-up, sign-in and email verification carry no session, so the session Origin rule does not
 * apply; but a browser that does send an Origin must be on our own page (no login CSRF).
 */
export const rejectForeignOrigin: Effect.Effect<
  void,
  ForeignOrigin,
  HttpServerRequest.HttpServerRequest | FoundationConfig
> = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { publicOrigin } = yield* FoundationConfig
  const origin = request.headers.origin
  if (origin !== undefined && origin !== publicOrigin) {
    return yield* new ForeignOrigin()
  }
})

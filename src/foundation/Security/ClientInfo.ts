// What the foundation records about a caller: its address (for rate limits) and user agent (shown
// in the session list), plus the check that public writes do not come from a foreign page.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ClientInfo } from "../Accounts/Accounts.js"
import { ForeignOrigin } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"

const MAX_USER_AGENT = 512

export const clientInfo: Effect.Effect<ClientInfo, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const userAgent = request.headers["user-agent"]
    return {
      address: Option.getOrElse(request.remoteAddress, () => "unknown"),
      userAgent: userAgent === undefined || userAgent === "" ? null : userAgent.slice(0, MAX_USER_AGENT)
    }
  }
)

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

// `GET /sign-out` and its form post: a person ends the session of this browser, as `auth.signOut`
// does for scripts (the same service call: the session is revoked and the cookie cleared). The post
// must come from this service's own page (its Origin) and carry the page's form token, so that no
// other site can sign a person out; anything else comes back as a page, never as JSON.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { html } from "../../http/pages/Html.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import type { DatabaseUnavailable, RateLimited } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import type { UnreadableForm } from "../Pages/FormBody.js"
import { sessionFormToken } from "../Pages/FormToken.js"
import { messagePage, unavailablePage } from "../Pages/MessagePage.js"
import { pageFormRule, sessionFormPost, unreadableFormPage } from "../Pages/PageForm.js"
import { pageRoute } from "../Pages/PageRoute.js"
import { Authenticator } from "../Security/AuthenticationLive.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { clearedSessionCookie } from "../Security/SessionCookie.js"
import { Accounts } from "./Accounts.js"
import { seeOther, tooManyRequests } from "./SignInRoutes.js"
import { SIGN_OUT_PATH, signedOutPage, signOutPage } from "./SignOutPage.js"

/** A token and nothing else. */
const MAX_FORM_BYTES = 1024

/** Binds the sign-out form to the session it ends. */
const signOutToken = (session: { readonly principal: SessionPrincipal; readonly token: string }) =>
  sessionFormToken(session.token, "sign-out", session.principal.sessionId)

const back = html`<a href="${SIGN_OUT_PATH}">Back to sign-out</a>`

const refused = (reason: string) =>
  messagePage({
    status: 403,
    title: "Sign-out refused",
    body: html`<p>${reason} You are still signed in. <a href="${SIGN_OUT_PATH}">Sign out here</a></p>`
  })

export const SignOutRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const authenticator = yield* Authenticator
    const { publicOrigin } = yield* FoundationConfig

    ;(yield* BodyRules).add([pageFormRule(SIGN_OUT_PATH, MAX_FORM_BYTES, back)])

    const show = Effect.gen(function* () {
      const session = yield* authenticator.pageSession(yield* HttpServerRequest.HttpServerRequest)
      return Option.isNone(session)
        ? signedOutPage()
        : signOutPage({ formToken: signOutToken(session.value) })
    })

    const submit = Effect.gen(function* () {
      const post = yield* sessionFormPost({
        publicOrigin,
        pageSession: authenticator.pageSession,
        tokenOf: signOutToken,
        refused,
        back
      })
      if (post._tag === "Refused") return post.page
      // Already without a session: what the person asked for is so; the stale cookie goes too.
      if (post._tag === "Posted") yield* accounts.signOut(post.session.principal)
      return seeOther(SIGN_OUT_PATH, { "set-cookie": clearedSessionCookie })
    })

    const answer = (
      handler: Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        UnreadableForm | RateLimited | DatabaseUnavailable,
        HttpServerRequest.HttpServerRequest
      >
    ) =>
      handler.pipe(
        Effect.catchTags({
          UnreadableForm: (error) => Effect.succeed(unreadableFormPage(error.description, back)),
          RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
          DatabaseUnavailable: () => Effect.succeed(unavailablePage())
        })
      )

    yield* router.add(
      "*",
      SIGN_OUT_PATH,
      pageRoute(publicOrigin, { GET: answer(show), POST: answer(submit) })
    )
  })
)

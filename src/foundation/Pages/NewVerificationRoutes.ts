// `/verify-email/new`: a signed-in person whose verification link expired or went astray asks for a
// new one (there is no API operation for it in the contract; the page is the way). GET shows the
// address and one button; the post must come from this page (its Origin, and a form token bound to
// the session) and is limited per account (`Accounts.sendNewVerification`). Without a session the
// person signs in first and comes back.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { tracedOnlyWithTheRequest } from "../../http/ApiApp.js"
import { html } from "../../http/pages/Html.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import { Accounts } from "../Accounts/Accounts.js"
import { seeOther, tooManyRequests } from "../Accounts/SignInRoutes.js"
import type { DatabaseUnavailable, RateLimited, Unauthenticated } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { Authenticator } from "../Security/AuthenticationLive.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import type { UnreadableForm } from "./FormBody.js"
import { sessionFormToken } from "./FormToken.js"
import { messagePage, unavailablePage } from "./MessagePage.js"
import { pageFormRule, sessionFormPost, unreadableFormPage } from "./PageForm.js"
import { pageRoute } from "./PageRoute.js"
import { signInPath } from "./ReturnTo.js"
import {
  alreadyVerifiedPage,
  NEW_VERIFICATION_PATH,
  newLinkSentPage,
  newVerificationPage
} from "./VerifyEmailPage.js"

/** A token and nothing else. */
const MAX_FORM_BYTES = 1024

const formTokenOf = (session: { readonly principal: SessionPrincipal; readonly token: string }) =>
  sessionFormToken(session.token, "new-verification", session.principal.userId)

const back = html`<a href="${NEW_VERIFICATION_PATH}">Back</a>`

const refused = (reason: string) =>
  messagePage({
    status: 403,
    title: "Nothing was sent",
    body: html`<p>${reason} <a href="${NEW_VERIFICATION_PATH}">Ask for a new link here</a>.</p>`
  })

type PageFailure = UnreadableForm | RateLimited | DatabaseUnavailable | Unauthenticated

export const NewVerificationRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const authenticator = yield* Authenticator
    const { publicOrigin } = yield* FoundationConfig

    ;(yield* BodyRules).add([pageFormRule(NEW_VERIFICATION_PATH, MAX_FORM_BYTES, back)])

    const show = Effect.gen(function* () {
      const session = yield* authenticator.pageSession(yield* HttpServerRequest.HttpServerRequest)
      if (Option.isNone(session)) return seeOther(signInPath(NEW_VERIFICATION_PATH))
      const user = yield* accounts.profile(session.value.principal.userId)
      return user.emailVerified
        ? alreadyVerifiedPage(user.email)
        : newVerificationPage({ email: user.email, formToken: formTokenOf(session.value) })
    })

    const send = Effect.gen(function* () {
      const post = yield* sessionFormPost({
        publicOrigin,
        pageSession: authenticator.pageSession,
        tokenOf: formTokenOf,
        refused,
        back
      })
      if (post._tag === "Refused") return post.page
      if (post._tag === "NoSession") {
        return messagePage({
          status: 401,
          title: "Sign in again",
          body: html`<p>Your session has ended, so nothing was sent. <a href="${signInPath(NEW_VERIFICATION_PATH)}">Sign in</a> and ask again.</p>`
        })
      }
      const outcome = yield* accounts.sendNewVerification(post.session.principal)
      return outcome.sent ? newLinkSentPage(outcome.email) : alreadyVerifiedPage(outcome.email)
    })

    const answer = (
      handler: Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        PageFailure,
        HttpServerRequest.HttpServerRequest
      >
    ) =>
      handler.pipe(
        Effect.catchTags({
          UnreadableForm: (error) => Effect.succeed(unreadableFormPage(error.description, back)),
          RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
          // The account behind a live session is gone (deleted meanwhile): sign in again.
          Unauthenticated: () => Effect.succeed(seeOther(signInPath(NEW_VERIFICATION_PATH))),
          DatabaseUnavailable: () => Effect.succeed(unavailablePage())
        })
      )

    yield* router.add(
      "*",
      NEW_VERIFICATION_PATH,
      tracedOnlyWithTheRequest(pageRoute({ GET: answer(show), POST: answer(send) }))
    )
  })
)

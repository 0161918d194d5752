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
import { html } from "../../http/pages/Html.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import { Accounts } from "../Accounts/Accounts.js"
import { seeOther, tooManyRequests } from "../Accounts/SignInRoutes.js"
import type { DatabaseUnavailable, RateLimited, Unauthenticated } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { carriedReturnTo, withReturnTo } from "./ConsolePaths.js"
import type { UnreadableForm } from "./FormBody.js"
import { sessionFormToken } from "./FormToken.js"
import { messagePage, unavailablePage } from "./MessagePage.js"
import { pageFormRule, sessionFormPost, unreadableFormPage } from "./PageForm.js"
import { pageRoute } from "./PageRoute.js"
import { PageViewers, viewerFrame } from "./PageViewers.js"
import { safeReturnTo, signInPath } from "./ReturnTo.js"
import {
  alreadyVerifiedPage,
  NEW_VERIFICATION_PATH,
  newLinkSentPage,
  newVerificationPage
} from "./VerifyEmailPage.js"
import { waitWords } from "./WaitWords.js"

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
    const viewers = yield* PageViewers
    const { publicOrigin } = yield* FoundationConfig

    const returnToOf = (request: HttpServerRequest.HttpServerRequest) =>
      carriedReturnTo(
        safeReturnTo(
          new URL(request.url, publicOrigin).searchParams.get("return_to") ?? undefined,
          publicOrigin
        )
      )

    ;(yield* BodyRules).add([pageFormRule(NEW_VERIFICATION_PATH, MAX_FORM_BYTES, back)])

    const show = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const returnTo = returnToOf(request)
      const viewer = yield* viewers.of(request)
      if (Option.isNone(viewer)) return seeOther(signInPath(withReturnTo(NEW_VERIFICATION_PATH, returnTo)))
      const user = viewer.value.user
      return user.emailVerified
        ? alreadyVerifiedPage(user.email, viewerFrame(viewer.value))
        : newVerificationPage({ viewer: viewer.value, formToken: formTokenOf(viewer.value), returnTo })
    })

    const send = Effect.gen(function* () {
      const post = yield* sessionFormPost({
        publicOrigin,
        pageSession: viewers.of,
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
      const viewer = post.session
      const returnTo = carriedReturnTo(safeReturnTo(post.fields.get("return_to"), publicOrigin))
      return yield* accounts.sendNewVerification(viewer.principal, returnTo).pipe(
        Effect.map((outcome) =>
          outcome.sent
            ? newLinkSentPage(outcome.email, viewer, returnTo)
            : alreadyVerifiedPage(outcome.email, viewerFrame(viewer))
        ),
        // At most a few links an hour: the page says when the next may be asked for.
        Effect.catchTag("RateLimited", (limited) =>
          Effect.succeed(
            newVerificationPage({
              viewer,
              formToken: formTokenOf(viewer),
              returnTo,
              status: 429,
              problem: `You asked for several links in the last hour. Wait ${waitWords(limited.retryAfterSeconds)}, then ask again; the links already sent keep working.`,
              headers: { "retry-after": String(limited.retryAfterSeconds) }
            })
          )
        )
      )
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
      pageRoute(publicOrigin, { GET: answer(show), POST: answer(send) })
    )
  })
)

// `/verify-email?token=…`, the link mailed at sign-up and for an email change (extensions §1, §6).
// GET shows a page with one button; the button POSTs the token and the same service call as
// `auth.verifyEmail` (POST /api/v1/auth/verify-email) uses it. Why not verify on GET: the contract's
// verification is a POST (it uses up the token and may change the account's email), and mail
// scanners and link previews open GET links on their own, which would use the link up before the
// person sees it and change an address nobody confirmed. A form needs no script, and a scanner does
// not submit it. The token is a 256-bit secret, so the POST needs no session; like the API, it
// refuses a post whose Origin is another site's.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { html } from "../../http/pages/Html.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import { Accounts } from "../Accounts/Accounts.js"
import { VerifyEmailRequest } from "../Accounts/Api.js"
import { tooManyRequests } from "../Accounts/SignInRoutes.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { rejectForeignOrigin } from "../Security/ClientInfo.js"
import { formParameters, singleValued } from "./FormBody.js"
import { unavailablePage } from "./MessagePage.js"
import { pageFormRule, unreadableFormPage } from "./PageForm.js"
import { pageRoute } from "./PageRoute.js"
import { PageViewers } from "./PageViewers.js"
import { safeReturnTo } from "./ReturnTo.js"
import {
  addressTakenPage,
  confirmEmailPage,
  emailVerifiedPage,
  foreignVerificationPage,
  invalidLinkPage,
  VERIFY_EMAIL_PATH
} from "./VerifyEmailPage.js"

/** A token of at most 200 characters fits many times over. */
const MAX_FORM_BYTES = 4 * 1024

const decodeToken = Schema.decodeUnknownEither(VerifyEmailRequest)

const openTheLinkAgain = html`Open the link from the message again.`

export const VerifyEmailRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const viewers = yield* PageViewers
    const config = yield* FoundationConfig

    ;(yield* BodyRules).add([pageFormRule(VERIFY_EMAIL_PATH, MAX_FORM_BYTES, openTheLinkAgain)])

    /** Whoever is signed in in this browser, for the page's frame (the link needs no session). */
    const viewerOf = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.map(viewers.of(request), Option.getOrUndefined)

    const returnToOf = (value: string | null | undefined) =>
      value === null || value === undefined ? undefined : safeReturnTo(value, config.publicOrigin)

    const show = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const query = new URL(request.url, config.publicOrigin).searchParams
      const token = query.get("token")
      return Either.isRight(decodeToken({ token })) && token !== null
        ? confirmEmailPage(token, returnToOf(query.get("return_to")), yield* viewerOf(request))
        : invalidLinkPage
    }).pipe(
      Effect.catchTags({
        RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
        DatabaseUnavailable: (error) => Effect.succeed(unavailablePage(error.retryAfterSeconds))
      })
    )

    const verify = Effect.gen(function* () {
      yield* rejectForeignOrigin
      const fields = singleValued(yield* formParameters)
      if (Either.isLeft(fields)) return invalidLinkPage
      const input = decodeToken({ token: fields.right.get("token") })
      if (Either.isLeft(input)) return invalidLinkPage
      const verified = yield* accounts.verifyEmail(input.right.token)
      const request = yield* HttpServerRequest.HttpServerRequest
      return emailVerifiedPage(verified, returnToOf(fields.right.get("return_to")), yield* viewerOf(request))
    }).pipe(
      Effect.provideService(FoundationConfig, config),
      Effect.catchTags({
        RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
        ForeignOrigin: () => Effect.succeed(foreignVerificationPage),
        UnreadableForm: (error) => Effect.succeed(unreadableFormPage(error.description, openTheLinkAgain)),
        InvalidVerificationLink: () => Effect.succeed(invalidLinkPage),
        EmailTaken: () => Effect.succeed(addressTakenPage),
        DatabaseUnavailable: (error) => Effect.succeed(unavailablePage(error.retryAfterSeconds))
      })
    )

    yield* router.add("*", VERIFY_EMAIL_PATH, pageRoute(config.publicOrigin, { GET: show, POST: verify }))
  })
)

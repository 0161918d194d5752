// `GET /sign-up` and its form post (extensions §9): the browser way to create an account, with the
// same rules and limits as `auth.signUp` (the same schema and the same service call), then the page
// that asks the person to check their mail (`/sign-up/check-email`). `return_to`, a path of this
// service, goes along: into the verification link, and on to where the person was going.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { ClientAddress } from "../../http/ClientAddress.js"
import { html } from "../../http/pages/Html.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import type { DatabaseUnavailable, RateLimited } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import {
  CHECK_EMAIL_PATH,
  CONSOLE_HOME,
  carriedReturnTo,
  SIGN_UP_PATH,
  withReturnTo
} from "../Pages/ConsolePaths.js"
import { formParameters, singleValued, type UnreadableForm } from "../Pages/FormBody.js"
import { decodeFields } from "../Pages/FormInput.js"
import { messagePage, unavailablePage } from "../Pages/MessagePage.js"
import { pageFormRule } from "../Pages/PageForm.js"
import { pageRoute } from "../Pages/PageRoute.js"
import { PageViewers } from "../Pages/PageViewers.js"
import { useThisAddress } from "../Pages/PublicAddress.js"
import { safeReturnTo, signInPath } from "../Pages/ReturnTo.js"
import { clientInfo } from "../Security/ClientInfo.js"
import { sessionCookie } from "../Security/SessionCookie.js"
import { Accounts } from "./Accounts.js"
import { SignUpRequest } from "./Api.js"
import { Sessions } from "./Sessions.js"
import { seeOther, tooManyRequests } from "./SignInRoutes.js"
import { checkEmailPage, signUpPage, signUpWords } from "./SignUpPage.js"

/** A name, an email, a password and a path fit in far less. */
const MAX_FORM_BYTES = 8 * 1024

export const SignUpRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const sessions = yield* Sessions
    const viewers = yield* PageViewers
    const { publicOrigin, emailTokenTtl } = yield* FoundationConfig
    const addresses = yield* ClientAddress
    const linkHours = Math.floor(Duration.toHours(emailTokenTtl))

    ;(yield* BodyRules).add([
      pageFormRule(SIGN_UP_PATH, MAX_FORM_BYTES, html`<a href="${SIGN_UP_PATH}">Back to sign-up</a>`)
    ])

    /** Where the person goes afterwards: the query's `return_to`, else the console. */
    const returnToOf = (request: HttpServerRequest.HttpServerRequest) => {
      const value = new URL(request.url, publicOrigin).searchParams.get("return_to")
      return value === null ? CONSOLE_HOME : safeReturnTo(value, publicOrigin)
    }

    /** The form, or straight on when the browser already has a live session. */
    const show = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const returnTo = returnToOf(request)
      const viewer = yield* viewers.of(request)
      return Option.isSome(viewer) ? seeOther(returnTo) : signUpPage({ returnTo })
    })

    const submit = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      // As for auth.signUp: a browser that sends an Origin must be on our own page.
      const origin = request.headers.origin
      if (origin !== undefined && origin !== publicOrigin) {
        return messagePage({
          status: 403,
          title: "Sign-up refused",
          body: html`<p>This form was sent from another address, so no account was created. ${useThisAddress(publicOrigin, SIGN_UP_PATH)}</p>`
        })
      }
      const params = singleValued(yield* formParameters)
      if (Either.isLeft(params)) {
        return signUpPage({
          returnTo: CONSOLE_HOME,
          status: 400,
          problem: `The field ${params.left} appears twice.`
        })
      }
      const fields = params.right
      const returnTo = safeReturnTo(fields.get("return_to"), publicOrigin)
      const typed = { name: fields.get("name") ?? "", email: (fields.get("email") ?? "").trim() }
      const input = decodeFields(
        SignUpRequest,
        { ...typed, password: fields.get("password") ?? "" },
        signUpWords
      )
      if (Either.isLeft(input)) return signUpPage({ returnTo, ...typed, errors: input.left })
      const again = (more: Parameters<typeof signUpPage>[0]) => Either.left(signUpPage(more))
      const signedUp = yield* accounts
        .signUp(input.right, yield* clientInfo(addresses), carriedReturnTo(returnTo))
        .pipe(
          Effect.map(Either.right),
          Effect.catchTags({
            WeakPassword: (error) =>
              Effect.succeed(
                again({ returnTo, ...typed, errors: [{ field: "field-password", text: error.reason }] })
              ),
            EmailTaken: () =>
              Effect.succeed(
                again({
                  returnTo,
                  ...typed,
                  status: 409,
                  errors: [
                    {
                      field: "field-email",
                      text: "An account with this email address already exists: sign in instead, or use another address"
                    }
                  ]
                })
              ),
            RateLimited: (error) =>
              Effect.succeed(
                again({
                  returnTo,
                  ...typed,
                  status: 429,
                  problem: `Too many attempts from your address. Wait ${error.retryAfterSeconds} seconds, then try again.`,
                  headers: { "retry-after": String(error.retryAfterSeconds) }
                })
              ),
            PasswordChecksBusy: (error) =>
              Effect.succeed(
                again({
                  returnTo,
                  ...typed,
                  status: 503,
                  problem: `The service is busy right now. Try again in ${error.retryAfterSeconds} seconds.`,
                  headers: { "retry-after": String(error.retryAfterSeconds) }
                })
              )
          })
        )
      if (Either.isLeft(signedUp)) return signedUp.left
      return seeOther(withReturnTo(CHECK_EMAIL_PATH, returnTo), {
        "set-cookie": sessionCookie(signedUp.right.sessionToken, sessions.ttl)
      })
    })

    const checkEmail = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const returnTo = returnToOf(request)
      const viewer = yield* viewers.of(request)
      if (Option.isNone(viewer)) return seeOther(signInPath(withReturnTo(CHECK_EMAIL_PATH, returnTo)))
      return checkEmailPage(viewer.value, returnTo, linkHours)
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
          UnreadableForm: (error) =>
            Effect.succeed(signUpPage({ returnTo: CONSOLE_HOME, status: 400, problem: error.description })),
          RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
          DatabaseUnavailable: (error) => Effect.succeed(unavailablePage(error.retryAfterSeconds))
        })
      )

    yield* router.add("*", SIGN_UP_PATH, pageRoute(publicOrigin, { GET: answer(show), POST: answer(submit) }))
    yield* router.add("*", CHECK_EMAIL_PATH, pageRoute(publicOrigin, { GET: answer(checkEmail) }))
  })
)

// `GET /sign-in` and its form post (extensions §8): the browser way to start a session, with the same
// rules and limits as `auth.signIn` (the same service call), and a return to any path of this service
// (`return_to`) once signed in. Failures come back as the page with a notice, never as JSON.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ClientAddress } from "../../http/ClientAddress.js"
import { html } from "../../http/pages/Html.js"
import { pageHeaders } from "../../http/pages/Page.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import type { DatabaseUnavailable, RateLimited } from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { CONSOLE_HOME } from "../Pages/ConsolePaths.js"
import { formParameters, singleValued, type UnreadableForm } from "../Pages/FormBody.js"
import { messagePage, unavailablePage } from "../Pages/MessagePage.js"
import { pageFormRule } from "../Pages/PageForm.js"
import { pageRoute } from "../Pages/PageRoute.js"
import { useThisAddress } from "../Pages/PublicAddress.js"
import { safeReturnTo } from "../Pages/ReturnTo.js"
import { waitWords } from "../Pages/WaitWords.js"
import { Authenticator } from "../Security/AuthenticationLive.js"
import { clientInfo } from "../Security/ClientInfo.js"
import { sessionCookie } from "../Security/SessionCookie.js"
import { Accounts } from "./Accounts.js"
import { SignInRequest } from "./Api.js"
import { Sessions } from "./Sessions.js"
import { signInPage } from "./SignInPage.js"

const path = "/sign-in"
/** An email, a password and a path fit in far less. */
const MAX_FORM_BYTES = 8 * 1024

const decodeSignIn = Schema.decodeUnknownEither(SignInRequest)

/** A 303 to a path of this service, as pages' redirects are: never cached, never framed. */
export const seeOther = (location: string, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.empty({
    status: 303,
    headers: { ...pageHeaders({ personal: true }), ...headers, location }
  })

/** The page of a person over a rate limit. */
export const tooManyRequests = (retryAfterSeconds: number) =>
  messagePage({
    status: 429,
    title: "Too many requests",
    body: html`<p>Wait ${waitWords(retryAfterSeconds)}, then reload this page.</p>`,
    headers: { "retry-after": String(retryAfterSeconds) }
  })

export const SignInRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const sessions = yield* Sessions
    const authenticator = yield* Authenticator
    const { publicOrigin } = yield* FoundationConfig
    const addresses = yield* ClientAddress

    // The form is small and form-encoded; the edge refuses anything else with a page.
    ;(yield* BodyRules).add([pageFormRule(path, MAX_FORM_BYTES, html`<a href="${path}">Back to sign-in</a>`)])

    /** The page, or straight back when the browser already has a live session. */
    const show = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const query = new URL(request.url, publicOrigin).searchParams
      // Nothing to come back to: the person's organizations, the console's home.
      const returnTo = query.has("return_to")
        ? safeReturnTo(query.get("return_to") ?? undefined, publicOrigin)
        : CONSOLE_HOME
      const session = yield* authenticator.pageSession(request)
      return Option.isSome(session) ? seeOther(returnTo) : signInPage({ returnTo })
    })

    const submit = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      // As for auth.signIn: a browser that sends an Origin must be on our own page (no login CSRF).
      const origin = request.headers.origin
      if (origin !== undefined && origin !== publicOrigin) {
        return messagePage({
          status: 403,
          title: "Sign-in refused",
          body: html`<p>This sign-in form was sent from another site or address, so you were not signed in. ${useThisAddress(publicOrigin, path)}</p>`
        })
      }
      const params = singleValued(yield* formParameters)
      if (Either.isLeft(params)) {
        return signInPage({ returnTo: "/", status: 400, problem: `The field ${params.left} appears twice.` })
      }
      const fields = params.right
      const returnTo = safeReturnTo(fields.get("return_to"), publicOrigin)
      const email = fields.get("email") ?? ""
      const input = decodeSignIn({ email, password: fields.get("password") ?? "" })
      if (Either.isLeft(input)) {
        return signInPage({
          returnTo,
          email,
          status: 400,
          problem: "Enter your email address and your password."
        })
      }
      const signedIn = yield* accounts.signIn(input.right, yield* clientInfo(addresses)).pipe(
        Effect.map(Either.right),
        Effect.catchTags({
          InvalidCredentials: (error) =>
            Effect.succeed(Either.left(signInPage({ returnTo, email, status: 401, problem: error.message }))),
          RateLimited: (error) =>
            Effect.succeed(
              Either.left(
                signInPage({
                  returnTo,
                  email,
                  status: 429,
                  problem: `Too many sign-in attempts. Wait ${error.retryAfterSeconds} seconds before trying again.`,
                  headers: { "retry-after": String(error.retryAfterSeconds) }
                })
              )
            ),
          PasswordChecksBusy: (error) =>
            Effect.succeed(
              Either.left(
                signInPage({
                  returnTo,
                  email,
                  status: 503,
                  problem: `Too many sign-ins are being checked right now. Try again in ${error.retryAfterSeconds} seconds.`,
                  headers: { "retry-after": String(error.retryAfterSeconds) }
                })
              )
            )
        })
      )
      if (Either.isLeft(signedIn)) return signedIn.left
      return seeOther(returnTo, { "set-cookie": sessionCookie(signedIn.right.sessionToken, sessions.ttl) })
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
            Effect.succeed(signInPage({ returnTo: "/", status: 400, problem: error.description })),
          RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
          DatabaseUnavailable: (error) => Effect.succeed(unavailablePage(error.retryAfterSeconds))
        })
      )

    yield* router.add("*", path, pageRoute(publicOrigin, { GET: answer(show), POST: answer(submit) }))
  })
)

// The forms people post from the foundation's pages, refused the same way everywhere: the server's
// edge reads each as a form-encoded body of bounded size, and a body it cannot read (too large, of
// another media type, a field given twice) is answered with a page that says so and where to go back,
// never with JSON.
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { ApiError } from "../../http/ApiError.js"
import { type Html, html } from "../../http/pages/Html.js"
import type { RouteBodyRule } from "../../http/ServerRegistries.js"
import type { DatabaseUnavailable, RateLimited } from "../Domain/Errors.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { formParameters, singleValued, type UnreadableForm } from "./FormBody.js"
import { sameFormToken } from "./FormToken.js"
import { type Message, messageAnswer, messagePage } from "./MessagePage.js"

const unreadable = (status: number, problem: string, back: Html | undefined): Message => ({
  status,
  title: "This form could not be read",
  body: back === undefined ? html`<p>${problem}</p>` : html`<p>${problem}</p><p>${back}</p>`
})

/** The edge's refusal of a page's form body: 413 when too large, else 400. */
export const formRefusal =
  (back?: Html) =>
  (error: ApiError): ReturnType<typeof messageAnswer> =>
    messageAnswer(unreadable(error.message.includes("larger") ? 413 : 400, error.message, back))

/** The edge's rule for the form a page posts to `path`: form-encoded, at most `maxBytes`. */
export const pageFormRule = (path: `/${string}`, maxBytes: number, back?: Html): RouteBodyRule => ({
  method: "POST",
  path,
  maxBytes,
  mediaTypes: ["form"],
  refusal: formRefusal(back)
})

/** The page of a form the route could not read (400). */
export const unreadableFormPage = (problem: string, back?: Html) =>
  messagePage(unreadable(400, problem, back))

/** What a post of a session-bound page form turned out to be. */
export type SessionFormPost<S extends PageSession = PageSession> =
  | { readonly _tag: "Refused"; readonly page: HttpServerResponse.HttpServerResponse }
  | { readonly _tag: "NoSession" }
  | {
      readonly _tag: "Posted"
      readonly fields: ReadonlyMap<string, string>
      readonly session: S
    }

type PageSession = { readonly principal: SessionPrincipal; readonly token: string }

/**
 * Reads the post of a page form bound to the session that was shown it: it must come from this
 * service's page (`publicOrigin`), give each field once, come with a live session, and carry that
 * session's `form_token` (`tokenOf`). Anything else is refused with a page (`refused` says why).
 */
export const sessionFormPost = <S extends PageSession>(options: {
  readonly publicOrigin: string
  readonly pageSession: (
    request: HttpServerRequest.HttpServerRequest
  ) => Effect.Effect<Option.Option<S>, RateLimited | DatabaseUnavailable>
  readonly tokenOf: (session: S) => string
  readonly refused: (reason: string) => HttpServerResponse.HttpServerResponse
  readonly back: Html
}): Effect.Effect<
  SessionFormPost<S>,
  UnreadableForm | RateLimited | DatabaseUnavailable,
  HttpServerRequest.HttpServerRequest
> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (request.headers.origin !== options.publicOrigin) {
      return { _tag: "Refused", page: options.refused("This form was not sent from this service's page.") }
    }
    const fields = singleValued(yield* formParameters)
    if (Either.isLeft(fields)) {
      return {
        _tag: "Refused",
        page: unreadableFormPage(`The field ${fields.left} appears twice.`, options.back)
      }
    }
    const session = yield* options.pageSession(request)
    if (Option.isNone(session)) return { _tag: "NoSession" }
    if (!sameFormToken(fields.right.get("form_token") ?? "", options.tokenOf(session.value))) {
      return { _tag: "Refused", page: options.refused("This form does not belong to your session.") }
    }
    return { _tag: "Posted", fields: fields.right, session: session.value }
  })

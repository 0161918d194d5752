// One page of the console (extensions §9): what every such page does the same way, so that each page
// says only what is its own. GET needs a signed-in person (else the sign-in page, and back); a post
// must come from this service's page (its Origin), carry the form token bound to the session and the
// page, and name its `action`; the refusals, limits and outages of every page are said on a page
// (never JSON), with `Retry-After` where waiting helps. The page and its form are personal: never
// stored by a cache, never framed.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Html, html } from "../../http/pages/Html.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import { seeOther, tooManyRequests } from "../Accounts/SignInRoutes.js"
import type {
  DatabaseUnavailable,
  OrganizationNotFound,
  RateLimited,
  Unauthenticated
} from "../Domain/Errors.js"
import { FoundationConfig } from "../FoundationConfig.js"
import type { UnreadableForm } from "../Pages/FormBody.js"
import { sessionFormToken } from "../Pages/FormToken.js"
import { messagePage, unavailablePage } from "../Pages/MessagePage.js"
import { pageFormRule, sessionFormPost, unreadableFormPage } from "../Pages/PageForm.js"
import { pageRoute } from "../Pages/PageRoute.js"
import { PageViewers, type Viewer, viewerFrame } from "../Pages/PageViewers.js"
import { useThisAddress } from "../Pages/PublicAddress.js"
import { signInPath } from "../Pages/ReturnTo.js"

/** What a console page's handlers may fail with and the route answers for them. */
export type ConsoleFailure =
  | UnreadableForm
  | RateLimited
  | DatabaseUnavailable
  | Unauthenticated
  | OrganizationNotFound

type Answer = Effect.Effect<HttpServerResponse.HttpServerResponse, ConsoleFailure>

export interface ConsolePage {
  /** The router's path (`/organizations/:organizationId`); also the form's body rule. */
  readonly path: `/${string}`
  /** The largest form the page posts. */
  readonly maxFormBytes: number
  /** What the form token of this page is bound to besides the session (e.g. the organization). */
  readonly purpose: (pathname: string) => string
  readonly show: (viewer: Viewer, url: URL) => Answer
  /** Handles a post whose origin, session and token were checked. */
  readonly post: (viewer: Viewer, fields: ReadonlyMap<string, string>, url: URL) => Answer
}

/** The token of a console page's forms: bound to the session and to the page's purpose. */
export const consoleFormToken = (viewer: Viewer, purpose: string) =>
  sessionFormToken(viewer.token, "console", purpose)

const notFoundPage = (viewer: Viewer) =>
  messagePage({
    status: 404,
    title: "Organization not found",
    body: html`<p>There is no organization at this address that you belong to. <a href="/organizations">See your organizations</a></p>`,
    frame: viewerFrame(viewer, "organizations")
  })

/** The route of one console page (built by `make` from its services), with its body rule. */
export const consoleRoute = <E, R>(make: Effect.Effect<ConsolePage, E, R>) =>
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const page = yield* make
      const viewers = yield* PageViewers
      const { publicOrigin } = yield* FoundationConfig
      const back = html`<a href="${page.path}">Back</a>`
      ;(yield* BodyRules).add([pageFormRule(page.path, page.maxFormBytes, back)])

      const urlOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, publicOrigin)
      const again = (url: URL): Html =>
        html`<a href="${signInPath(`${url.pathname}${url.search}`)}">Sign in</a>`

      /** Failures that are the same on every page: each said on a page of its own. */
      const answered = (viewer: Viewer | undefined, url: URL, answer: Answer) =>
        answer.pipe(
          Effect.catchTags({
            UnreadableForm: (error) => Effect.succeed(unreadableFormPage(error.description, back)),
            RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
            DatabaseUnavailable: (error) => Effect.succeed(unavailablePage(error.retryAfterSeconds)),
            // The account behind a live session is gone (deleted meanwhile): sign in again.
            Unauthenticated: () => Effect.succeed(seeOther(signInPath(`${url.pathname}${url.search}`))),
            OrganizationNotFound: () =>
              Effect.succeed(viewer === undefined ? seeOther(signInPath(url.pathname)) : notFoundPage(viewer))
          })
        )

      const show = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const url = urlOf(request)
        const viewer = yield* viewers.of(request)
        if (Option.isNone(viewer)) return seeOther(signInPath(`${url.pathname}${url.search}`))
        return yield* answered(viewer.value, url, page.show(viewer.value, url))
      })

      const submit = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const url = urlOf(request)
        const purpose = page.purpose(url.pathname)
        const post = yield* sessionFormPost({
          publicOrigin,
          pageSession: viewers.of,
          tokenOf: (viewer: Viewer) => consoleFormToken(viewer, purpose),
          refused: (reason) =>
            messagePage({
              status: 403,
              title: "Nothing was changed",
              body: html`<p>${reason} ${useThisAddress(publicOrigin, url.pathname)}</p>`
            }),
          back
        })
        if (post._tag === "Refused") return post.page
        if (post._tag === "NoSession") {
          return messagePage({
            status: 401,
            title: "Sign in again",
            body: html`<p>Your session has ended, so nothing was changed. ${again(url)} and try again.</p>`
          })
        }
        return yield* answered(post.session, url, page.post(post.session, post.fields, url))
      })

      const failures = (
        answer: Effect.Effect<
          HttpServerResponse.HttpServerResponse,
          UnreadableForm | RateLimited | DatabaseUnavailable,
          HttpServerRequest.HttpServerRequest
        >
      ) =>
        answer.pipe(
          Effect.catchTags({
            UnreadableForm: (error) => Effect.succeed(unreadableFormPage(error.description, back)),
            RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
            DatabaseUnavailable: (error) => Effect.succeed(unavailablePage(error.retryAfterSeconds))
          })
        )

      yield* router.add(
        "*",
        page.path,
        pageRoute(publicOrigin, { GET: failures(show), POST: failures(submit) })
      )
    })
  )

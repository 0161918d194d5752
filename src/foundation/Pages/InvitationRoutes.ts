// `/accept-invitation?invitation=<id>`, the link mailed to an invitee (extensions §4, §6). GET shows
// the invitation to the signed-in person (signed out: the sign-in page first, then back here); POST
// takes their decision with the same service calls as invitations.accept and .reject, so the same
// rules decide (the verified email of the session must be the invitation's; only a pending one can be
// answered), and every refusal is explained on a page. The decision changes state with the session:
// it must come from this service's own page (Origin, §3) and carry the form token bound to the session.
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { html } from "../../http/pages/Html.js"
import { BodyRules } from "../../http/ServerRegistries.js"
import { seeOther, tooManyRequests } from "../Accounts/SignInRoutes.js"
import { InvitationId } from "../Domain/Ids.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { Invitations } from "../Invitations/Invitations.js"
import { Authenticator } from "../Security/AuthenticationLive.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { formParameters, singleValued } from "./FormBody.js"
import { sameFormToken, sessionFormToken } from "./FormToken.js"
import {
  decisionRefusedPage,
  INVITATION_PAGE_PATH,
  invitationNotFoundPage,
  invitationPage,
  invitationPagePath,
  notYoursPage
} from "./InvitationPage.js"
import { messagePage, unavailablePage } from "./MessagePage.js"
import { pageFormRule, unreadableFormPage } from "./PageForm.js"
import { pageRoute } from "./PageRoute.js"
import { signInPath } from "./ReturnTo.js"

/** An id, a token and a word. */
const MAX_FORM_BYTES = 4 * 1024

const decodeId = Schema.decodeUnknownOption(InvitationId)

const openTheLinkAgain = html`Open the link from the message again.`

/** Binds a decision to the session that was shown the invitation, and to that invitation. */
const decisionToken = (sessionToken: string, invitationId: InvitationId) =>
  sessionFormToken(sessionToken, "invitation-decision", invitationId)

const signInAgainPage = (invitationId: Option.Option<InvitationId>) =>
  messagePage({
    status: 401,
    title: "Sign in again",
    body: html`<p>Your session has ended, so nothing was decided. <a href="${signInPath(
      Option.match(invitationId, { onNone: () => "/", onSome: invitationPagePath })
    )}">Sign in</a> and answer the invitation again.</p>`
  })

export const InvitationRoutes = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const invitations = yield* Invitations
    const authenticator = yield* Authenticator
    const { publicOrigin } = yield* FoundationConfig

    ;(yield* BodyRules).add([pageFormRule(INVITATION_PAGE_PATH, MAX_FORM_BYTES, openTheLinkAgain)])

    /** The invitation as this session may see it, with a problem to show above it. */
    const invitationFor = (
      session: { readonly principal: SessionPrincipal; readonly token: string },
      invitationId: InvitationId,
      problem?: { readonly status: number; readonly text: string }
    ) =>
      Effect.map(invitations.forPerson(session.principal, invitationId), (found) =>
        found.standing === "another-email"
          ? notYoursPage(found.signedInAs)
          : invitationPage({
              view: found,
              formToken: decisionToken(session.token, invitationId),
              ...(problem === undefined ? {} : { problem: problem.text, status: problem.status })
            })
      )

    const show = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const url = new URL(request.url, publicOrigin)
      const invitationId = decodeId(url.searchParams.get("invitation"))
      if (Option.isNone(invitationId)) return invitationNotFoundPage
      const session = yield* authenticator.pageSession(request)
      // Signed out: sign in first (any account; the page then says whether the invitation is theirs).
      if (Option.isNone(session)) return seeOther(signInPath(invitationPagePath(invitationId.value)))
      return yield* invitationFor(session.value, invitationId.value)
    })

    const decide = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (request.headers.origin !== publicOrigin) {
        return decisionRefusedPage(
          "This decision was not sent from this service's invitation page, so nothing was decided. Open the link from the message again."
        )
      }
      const fields = singleValued(yield* formParameters)
      if (Either.isLeft(fields)) {
        return unreadableFormPage(`The field ${fields.left} appears twice.`, openTheLinkAgain)
      }
      const invitationId = decodeId(fields.right.get("invitation"))
      const session = yield* authenticator.pageSession(request)
      if (Option.isNone(session)) return signInAgainPage(invitationId)
      if (Option.isNone(invitationId)) return invitationNotFoundPage
      const id = invitationId.value
      if (!sameFormToken(fields.right.get("form_token") ?? "", decisionToken(session.value.token, id))) {
        return decisionRefusedPage(
          "This form does not belong to your session, so nothing was decided. Open the link from the message again."
        )
      }
      const decision = fields.right.get("decision")
      if (decision !== "accept" && decision !== "reject") {
        return yield* invitationFor(session.value, id, { status: 400, text: "Choose Accept or Reject." })
      }
      const principal = session.value.principal
      const answered = yield* (
        decision === "accept"
          ? Effect.asVoid(invitations.accept(principal, id))
          : invitations.reject(principal, id)
      ).pipe(
        Effect.as(Option.none<{ readonly status: number; readonly text: string }>()),
        Effect.catchTags({
          // The same refusals as the API's, said on the page beside the invitation (or, for
          // another person, the page that says it is not theirs).
          InvitationForAnotherEmail: (error) =>
            Effect.succeed(Option.some({ status: 403, text: error.message })),
          EmailNotVerified: (error) => Effect.succeed(Option.some({ status: 403, text: error.message })),
          InvitationNotPending: (error) => Effect.succeed(Option.some({ status: 409, text: error.message })),
          AlreadyMember: () =>
            Effect.succeed(
              Option.some({ status: 409, text: "You are already a member of this organization." })
            )
        })
      )
      // Answered: back to the invitation, which now says so (a reload does not post again).
      if (Option.isNone(answered)) return seeOther(invitationPagePath(id))
      return yield* invitationFor(session.value, id, answered.value)
    })

    type PageFailure = Effect.Effect.Error<typeof show> | Effect.Effect.Error<typeof decide>

    /** Refusals that are the same for showing and deciding. */
    const pageFailures = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, PageFailure, R>) =>
      effect.pipe(
        Effect.catchTags({
          InvitationNotFound: () => Effect.succeed(invitationNotFoundPage),
          Unauthenticated: () => Effect.succeed(signInAgainPage(Option.none())),
          UnreadableForm: (error) => Effect.succeed(unreadableFormPage(error.description)),
          RateLimited: (error) => Effect.succeed(tooManyRequests(error.retryAfterSeconds)),
          DatabaseUnavailable: (error) => Effect.succeed(unavailablePage(error.retryAfterSeconds))
        })
      )

    yield* router.add(
      "*",
      INVITATION_PAGE_PATH,
      pageRoute(publicOrigin, { GET: pageFailures(show), POST: pageFailures(decide) })
    )
  })
)

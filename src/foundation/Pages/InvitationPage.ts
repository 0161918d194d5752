// The pages of the invitation link (`/accept-invitation?invitation=<id>`): the invitation as its
// invitee sees it (organization, role, address, status, expiry) with Accept and Reject while it is
// pending, and the explanations for everyone who cannot answer it (another person, an address not
// yet verified, an invitation no longer pending). The form carries a token bound to the session.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { timeOf } from "../../http/pages/Dates.js"
import { hidden, notice } from "../../http/pages/Forms.js"
import { displayName, type Html, html, neutralText } from "../../http/pages/Html.js"
import { pageResponse } from "../../http/pages/Page.js"
import type { Role } from "../Domain/Common.js"
import type { InvitationForPerson } from "../Invitations/Invitations.js"
import { messagePage } from "./MessagePage.js"

export const INVITATION_PAGE_PATH = "/accept-invitation"

/** The link's own address, to come back to (after signing in, after a decision). */
export const invitationPagePath = (invitationId: string) =>
  `${INVITATION_PAGE_PATH}?invitation=${encodeURIComponent(invitationId)}`

type ForInvitee = Exclude<InvitationForPerson, { readonly standing: "another-email" }>

const roleWords: Record<Role, string> = {
  owner: "owner (full control, including the organization's owners)",
  admin: "admin (manages members, invitations and tokens)",
  member: "member"
}

const when = timeOf

/** What the invitation's state means for the person, and what they can do. */
const standingNotice = (view: ForInvitee): Html => {
  const { invitation } = view
  const organizationName = displayName(view.organizationName)
  switch (invitation.status) {
    case "accepted":
      return notice("ok", html`You accepted this invitation and joined ${organizationName}.`)
    case "rejected":
      return notice(
        "info",
        "You declined this invitation. Ask the organization for a new one if you change your mind."
      )
    case "revoked":
      return notice(
        "info",
        html`${organizationName} withdrew this invitation. Ask its owners or admins for a new one.`
      )
    case "expired":
      return notice(
        "info",
        html`This invitation expired on ${when(invitation.expiresAt)}. Ask the owners or admins of ${organizationName} for a new one.`
      )
    case "pending":
      return view.standing === "unverified"
        ? notice(
            "error",
            html`Verify your email address before answering: open the link in the message we sent to <strong>${displayName(view.signedInAs)}</strong>, then come back to this page.`
          )
        : html``
  }
}

export interface InvitationView {
  readonly view: ForInvitee
  /** The form token binding a decision to this session and this invitation. */
  readonly formToken: string
  /** Why a decision came back instead of being taken. */
  readonly problem?: string
  readonly status?: number
}

export const invitationPage = ({
  view,
  formToken,
  problem,
  status
}: InvitationView): HttpServerResponse.HttpServerResponse => {
  const { invitation } = view
  const organizationName = displayName(view.organizationName)
  const answerable = invitation.status === "pending" && view.standing === "invitee"
  return pageResponse(
    {
      title: `Invitation to ${neutralText(view.organizationName)}`,
      body: html`<h1>Invitation to join ${organizationName}</h1>
${problem === undefined ? "" : notice("error", problem)}
${standingNotice(view)}
<dl class="facts">
<dt>Organization</dt><dd>${organizationName}</dd>
<dt>Role</dt><dd>${roleWords[invitation.role]}</dd>
<dt>Sent to</dt><dd>${displayName(invitation.email)}</dd>
<dt>Status</dt><dd>${invitation.status}</dd>
<dt>${invitation.status === "expired" ? "Expired" : "Expires"}</dt><dd>${when(invitation.expiresAt)}</dd>
<dt>Signed in as</dt><dd>${displayName(view.signedInAs)}</dd>
</dl>
${
  answerable
    ? html`<form method="post" action="${INVITATION_PAGE_PATH}">
${hidden("invitation", invitation.id)}
${hidden("form_token", formToken)}
<div class="actions">
<button type="submit" name="decision" value="accept">Accept and join ${organizationName}</button>
<button type="submit" name="decision" value="reject" class="secondary">Reject</button>
</div>
</form>`
    : ""
}`
    },
    { personal: true, status: status ?? 200 }
  )
}

/** Someone signed in with another address holds the link: they learn nothing else about it. */
export const notYoursPage = (signedInAs: string) =>
  messagePage({
    status: 403,
    title: "This invitation is for someone else",
    body: html`<p>This invitation was sent to another email address than <strong>${displayName(signedInAs)}</strong>, the one you are signed in with, so you cannot answer it.</p>
<p>If it was sent to you at another address, sign out, then open the link again and sign in with that address.</p>`
  })

export const invitationNotFoundPage = messagePage({
  status: 404,
  title: "Invitation not found",
  body: html`<p>There is no invitation at this link. Check that the whole link from the message was copied, or ask the organization for a new invitation.</p>`
})

/** A decision posted from another site, or with a form that is not this session's: nothing was decided. */
export const decisionRefusedPage = (text: string) =>
  messagePage({ status: 403, title: "Decision refused", body: html`<p>${text}</p>` })

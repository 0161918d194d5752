// The pages of the email verification link (`/verify-email?token=…`, mailed at sign-up and for an
// email change): the confirmation with its one button, the outcome, and a link that no longer works.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { hidden, notice } from "../../http/pages/Forms.js"
import { html } from "../../http/pages/Html.js"
import { pageResponse } from "../../http/pages/Page.js"
import type { VerifiedEmail } from "../Accounts/Accounts.js"
import { messagePage } from "./MessagePage.js"

export const VERIFY_EMAIL_PATH = "/verify-email"

/** The page the link opens: nothing is verified until the person presses the button. */
export const confirmEmailPage = (token: string): HttpServerResponse.HttpServerResponse =>
  pageResponse(
    {
      title: "Confirm your email address",
      body: html`<h1>Confirm your email address</h1>
<p class="lead">Press the button to confirm that this email address is yours.</p>
<form method="post" action="${VERIFY_EMAIL_PATH}">
${hidden("token", token)}
<div class="actions"><button type="submit">Verify my email address</button></div>
</form>
<p class="hint">Mail filters open links on their own to check them; only your press of the button verifies the address.</p>`
    },
    { personal: true }
  )

export const emailVerifiedPage = (verified: VerifiedEmail): HttpServerResponse.HttpServerResponse =>
  pageResponse(
    {
      title: "Email address verified",
      body: html`<h1>Email address verified</h1>
${notice(
  "ok",
  verified.purpose === "change-email"
    ? html`Your account's email address is now <strong>${verified.email}</strong>. Use it to sign in from now on.`
    : html`<strong>${verified.email}</strong> is verified. You can now answer invitations sent to it.`
)}
<p><a href="/">Go to the home page</a></p>`
    },
    { personal: true }
  )

/** A link that is malformed, unknown, expired or already used: the service cannot tell them apart for you. */
export const invalidLinkPage = messagePage({
  status: 400,
  title: "This link no longer works",
  body: html`<p>This verification link is invalid, has expired or was already used. If your address is already verified, there is nothing more to do.</p>
<p>Check that you opened the newest message and that the whole link was copied. For a change of email address, ask for the change again in your profile to get a new link.</p>`
})

/** An email change whose address another account took while the link waited. */
export const addressTakenPage = messagePage({
  status: 409,
  title: "This address is already in use",
  body: html`<p>Another account uses this email address now, so yours was not changed. Keep your current address, or ask for a change to another one in your profile.</p>`
})

/** The form was posted from another site: not verified. */
export const foreignVerificationPage = messagePage({
  status: 403,
  title: "Verification refused",
  body: html`<p>This verification was sent from another site, so nothing was verified. Open the link from the message again and press the button on this service's page.</p>`
})

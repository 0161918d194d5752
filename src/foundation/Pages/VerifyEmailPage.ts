// The pages of the email verification link (`/verify-email?token=…`, mailed at sign-up and for an
// email change): the confirmation with its one button, the outcome, and a link that no longer works.
// A link mailed from a page flow carries `return_to`, and the outcome leads on to it (extensions §9).
// The pages are in the frame of whoever is signed in in this browser, if anyone.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { hidden, notice } from "../../http/pages/Forms.js"
import { displayName, html } from "../../http/pages/Html.js"
import type { PageOptions } from "../../http/pages/Page.js"
import type { VerifiedEmail } from "../Accounts/Accounts.js"
import { ACCOUNT_PATH, CONSOLE_HOME, carriedReturnTo } from "./ConsolePaths.js"
import { messagePage } from "./MessagePage.js"
import { type Viewer, viewerFrame, viewerPage } from "./PageViewers.js"

export const VERIFY_EMAIL_PATH = "/verify-email"
/** Where a signed-in person asks for a new verification link. */
export const NEW_VERIFICATION_PATH = "/verify-email/new"

/** The page the link opens: nothing is verified until the person presses the button. */
export const confirmEmailPage = (
  token: string,
  returnTo: string | undefined,
  viewer: Viewer | undefined
): HttpServerResponse.HttpServerResponse => {
  const carried = carriedReturnTo(returnTo)
  return viewerPage(viewer, {
    title: "Confirm your email address",
    body: html`<h1>Confirm your email address</h1>
<p class="lead">Press the button to confirm that this email address is yours.</p>
<form method="post" action="${VERIFY_EMAIL_PATH}">
${hidden("token", token)}
${carried === undefined ? "" : hidden("return_to", carried)}
<div class="actions"><button type="submit">Verify my email address</button></div>
</form>
<p class="hint">Mail filters open links on their own to check them; only your press of the button verifies the address.</p>`
  })
}

/** The outcome, and the way on: where the person was going, else their account or organizations. */
export const emailVerifiedPage = (
  verified: VerifiedEmail,
  returnTo: string | undefined,
  viewer: Viewer | undefined
): HttpServerResponse.HttpServerResponse => {
  const carried = carriedReturnTo(returnTo)
  const onwards =
    carried !== undefined
      ? html`<a href="${carried}">Continue where you were</a>`
      : verified.purpose === "change-email"
        ? html`<a href="${ACCOUNT_PATH}">Back to your account</a>`
        : html`<a href="${CONSOLE_HOME}">Go to your organizations</a>`
  return viewerPage(viewer, {
    title: "Email address verified",
    body: html`<h1>Email address verified</h1>
${notice(
  "ok",
  verified.purpose === "change-email"
    ? html`Your account's email address is now <strong>${displayName(verified.email)}</strong>. Use it to sign in from now on.`
    : html`<strong>${displayName(verified.email)}</strong> is verified. You can now answer invitations sent to it.`
)}
<div class="actions">${onwards}</div>`
  })
}

/** A link that is malformed, unknown, expired or already used: the service cannot tell them apart for you. */
export const invalidLinkPage = messagePage({
  status: 400,
  title: "This link no longer works",
  body: html`<p>This verification link is invalid, has expired or was already used. If your address is already verified, there is nothing more to do.</p>
<p>Check that you opened the newest message and that the whole link was copied. <a href="${NEW_VERIFICATION_PATH}">Ask for a new link</a> to verify your account's address; for a change of email address, ask for the change again in <a href="${ACCOUNT_PATH}#email">your account</a>.</p>`
})

/** The page that sends a new link to the account's address, with its one button. */
export const newVerificationPage = (form: {
  readonly viewer: Viewer
  readonly formToken: string
  readonly returnTo: string | undefined
  readonly problem?: string
  readonly status?: number
  readonly headers?: Readonly<Record<string, string>>
}): HttpServerResponse.HttpServerResponse => {
  const carried = carriedReturnTo(form.returnTo)
  return viewerPage(
    form.viewer,
    {
      title: "Get a new verification link",
      body: html`<h1>Get a new verification link</h1>
<p class="lead">We will send a new link to <strong>${displayName(form.viewer.user.email)}</strong>. Links you had before keep working until they expire.</p>
${form.problem === undefined ? "" : notice("error", form.problem)}
<form method="post" action="${NEW_VERIFICATION_PATH}">
${hidden("form_token", form.formToken)}
${carried === undefined ? "" : hidden("return_to", carried)}
<div class="actions"><button type="submit">Send a new link</button></div>
</form>
<p class="hint">Not your address? <a href="${ACCOUNT_PATH}#email">Change it in your account</a>; the change is confirmed by a link sent to the new address.</p>`
    },
    { status: form.status ?? 200, headers: form.headers ?? {} }
  )
}

/** The new link went out. */
export const newLinkSentPage = (email: string, viewer: Viewer, returnTo: string | undefined) =>
  messagePage({
    status: 200,
    title: "A new link is on its way",
    body: html`<p>We sent a new verification link to <strong>${displayName(email)}</strong>. Open the newest message and press the button on the page it opens.</p>${
      carriedReturnTo(returnTo) === undefined
        ? ""
        : html`<p><a href="${carriedReturnTo(returnTo) ?? CONSOLE_HOME}">Continue where you were</a></p>`
    }`,
    frame: viewerFrame(viewer)
  })

/** Nothing to send: the account's address is verified. */
export const alreadyVerifiedPage = (email: string, frame: Pick<PageOptions, "theme" | "nav"> = {}) =>
  messagePage({
    status: 200,
    title: "Your address is verified",
    body: html`<p><strong>${displayName(email)}</strong> is already verified. There is nothing more to do.</p><p><a href="${CONSOLE_HOME}">Go to your organizations</a></p>`,
    frame
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

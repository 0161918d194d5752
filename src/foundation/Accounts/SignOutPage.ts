// The sign-out page: the browser's way to end its session (as `auth.signOut` does for scripts). Its
// one button posts a form bound to the session (`FormToken.ts`), so another site cannot end it. It
// works without JavaScript and, like every page, is never framed nor cached.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { hidden, notice } from "../../http/pages/Forms.js"
import { html } from "../../http/pages/Html.js"
import { pageResponse } from "../../http/pages/Page.js"
import { messagePage } from "../Pages/MessagePage.js"

export const SIGN_OUT_PATH = "/sign-out"

export interface SignOutForm {
  readonly formToken: string
  /** Why the form came back. */
  readonly problem?: string
  readonly status?: number
}

export const signOutPage = (form: SignOutForm): HttpServerResponse.HttpServerResponse =>
  pageResponse(
    {
      title: "Sign out",
      body: html`<h1>Sign out</h1>
<p class="lead">End your session in this browser. Your other sessions, API tokens and connected apps are not affected.</p>
${form.problem === undefined ? "" : notice("error", form.problem)}
<form method="post" action="${SIGN_OUT_PATH}">
${hidden("form_token", form.formToken)}
<div class="actions"><button type="submit">Sign out</button></div>
</form>`
    },
    { personal: true, status: form.status ?? 200, headers: {} }
  )

/** What a browser without a session sees here: after signing out, or never signed in. */
export const signedOutPage = (headers: Readonly<Record<string, string>> = {}) =>
  messagePage({
    status: 200,
    title: "You are signed out",
    body: html`<p>This browser has no session with the service. <a href="/sign-in">Sign in</a></p>`,
    headers
  })

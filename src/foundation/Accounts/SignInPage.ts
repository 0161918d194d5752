// The sign-in page (extensions §8, §9): a plain form for browsers, posted back to `/sign-in`, that
// returns to the page that sent the person here (`return_to`, a path of this service) once they are
// signed in, with the ways on for someone without an account (sign-up, keeping `return_to`) or
// without their verification link. It works without JavaScript and, like every page, is never
// framed nor cached.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { hidden, input, notice } from "../../http/pages/Forms.js"
import { html } from "../../http/pages/Html.js"
import { pageResponse } from "../../http/pages/Page.js"
import { SIGN_UP_PATH, withReturnTo } from "../Pages/ConsolePaths.js"
import { NEW_VERIFICATION_PATH } from "../Pages/VerifyEmailPage.js"

export interface SignInForm {
  readonly returnTo: string
  /** What the person typed, kept when the form comes back with a problem. */
  readonly email?: string
  /** Why the form came back. */
  readonly problem?: string
  readonly status?: number
  readonly headers?: Readonly<Record<string, string>>
}

export const signInPage = (form: SignInForm): HttpServerResponse.HttpServerResponse =>
  pageResponse(
    {
      title: "Sign in",
      body: html`<h1>Sign in</h1>
<p class="lead">Sign in to your account to continue.</p>
${form.problem === undefined ? "" : notice("error", form.problem)}
<form method="post" action="/sign-in">
${hidden("return_to", form.returnTo)}
${input({
  name: "email",
  label: "Email",
  type: "email",
  autocomplete: "username",
  required: true,
  maxLength: 254,
  autofocus: form.email === undefined,
  ...(form.email === undefined ? {} : { value: form.email })
})}
${input({
  name: "password",
  label: "Password",
  type: "password",
  autocomplete: "current-password",
  required: true,
  maxLength: 1024,
  autofocus: form.email !== undefined
})}
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<p>New here? <a href="${withReturnTo(SIGN_UP_PATH, form.returnTo)}">Create an account</a></p>
<p>Lost the message with the link that confirms your address? <a href="${withReturnTo(NEW_VERIFICATION_PATH, form.returnTo)}">Get a new verification link</a> (you sign in first).</p>`
    },
    { personal: true, status: form.status ?? 200, headers: form.headers ?? {} }
  )

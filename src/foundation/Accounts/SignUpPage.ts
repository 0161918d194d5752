// The sign-up page (extensions §9): a plain form for browsers (name, email, password) with the same
// rules and limits as `auth.signUp`, whose problems come back beside the fields with what was typed
// kept (the password excepted); and the page it leads to, which asks the person to check their mail
// and lets them continue where they were going (`return_to`). Never framed nor cached.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { errorFor, errorSummary, type FieldError, hidden, input, notice } from "../../http/pages/Forms.js"
import { displayName, html } from "../../http/pages/Html.js"
import { pageResponse } from "../../http/pages/Page.js"
import { passwordBounds, personNameBounds } from "../Domain/User.js"
import { CONSOLE_HOME, SIGN_UP_PATH, withReturnTo } from "../Pages/ConsolePaths.js"
import type { FieldWords } from "../Pages/FormInput.js"
import { calledName, type Viewer, viewerPage } from "../Pages/PageViewers.js"
import { NEW_VERIFICATION_PATH } from "../Pages/VerifyEmailPage.js"

/** What to do about each field the rules of `auth.signUp` refuse, in the form's order. */
export const signUpWords: FieldWords = {
  name: `Enter your name, at most ${personNameBounds.maximum} characters`,
  email: "Enter an email address in the correct format, like name@example.com",
  password: `Enter a password of ${passwordBounds.minimum} to ${passwordBounds.maximum} characters`
}

export interface SignUpForm {
  readonly returnTo: string
  /** What the person typed (never the password), kept when the form comes back. */
  readonly name?: string
  readonly email?: string
  readonly errors?: ReadonlyArray<FieldError>
  /** A problem with the whole form (too many attempts, the service busy). */
  readonly problem?: string
  readonly status?: number
  readonly headers?: Readonly<Record<string, string>>
}

export const signUpPage = (form: SignUpForm): HttpServerResponse.HttpServerResponse => {
  const errors = form.errors ?? []
  return pageResponse(
    {
      title: errors.length === 0 ? "Create an account" : "Error: Create an account",
      body: html`${errorSummary(errors)}<h1>Create an account</h1>
<p class="lead">An account lets you create organizations, invite people, issue API tokens and connect apps and agents.</p>
${form.problem === undefined ? "" : notice("error", form.problem)}
<form method="post" action="${SIGN_UP_PATH}" novalidate>
${hidden("return_to", form.returnTo)}
${input({
  name: "name",
  label: "Your name",
  type: "text",
  autocomplete: "name",
  required: true,
  maxLength: personNameBounds.maximum,
  value: form.name,
  error: errorFor(errors, "field-name")
})}
${input({
  name: "email",
  label: "Email address",
  type: "email",
  autocomplete: "email",
  required: true,
  maxLength: 254,
  spellcheck: false,
  hint: "We will send a link to this address to confirm it is yours.",
  value: form.email,
  error: errorFor(errors, "field-email")
})}
${input({
  name: "password",
  label: "Password",
  type: "password",
  autocomplete: "new-password",
  required: true,
  maxLength: passwordBounds.maximum,
  hint: `${passwordBounds.minimum} to ${passwordBounds.maximum} characters. A few unrelated words make a strong password that is easy to remember.`,
  error: errorFor(errors, "field-password")
})}
<div class="actions"><button type="submit">Create account</button></div>
</form>
<p>Already have an account? <a href="${withReturnTo("/sign-in", form.returnTo)}">Sign in</a></p>`
    },
    { personal: true, status: form.status ?? (errors.length === 0 ? 200 : 400), headers: form.headers ?? {} }
  )
}

/** After sign-up: check your mail; the link confirms the address and leads on to `returnTo`. */
export const checkEmailPage = (viewer: Viewer, returnTo: string, linkHours: number) => {
  const continueTo = returnTo === "/" ? CONSOLE_HOME : returnTo
  return viewerPage(viewer, {
    title: viewer.user.emailVerified ? "Your address is confirmed" : "Check your email",
    body: viewer.user.emailVerified
      ? html`<h1>Your address is confirmed</h1>
${notice("ok", html`<strong>${displayName(viewer.user.email)}</strong> is confirmed. Welcome, ${displayName(calledName(viewer.user))}.`)}
<div class="actions"><a href="${continueTo}">Continue</a></div>`
      : html`<h1>Check your email</h1>
<p class="lead">Welcome, ${displayName(calledName(viewer.user))}. We sent a link to <strong>${displayName(viewer.user.email)}</strong>.</p>
<p>Open the message and follow its link, then press the button on the page it opens to confirm that the address is yours. The link works for ${linkHours} hours and brings you back here afterwards.</p>
<p>You can go on now and confirm your address later: you need a confirmed address to accept invitations to organizations.</p>
<div class="actions"><a href="${continueTo}">Continue without waiting</a></div>
<h2>No message?</h2>
<p>Look in your spam or junk folder, and check that the address above is right. <a href="${withReturnTo(NEW_VERIFICATION_PATH, returnTo)}">Get a new link</a>, or change the address in <a href="/account#email">your account</a>.</p>`
  })
}

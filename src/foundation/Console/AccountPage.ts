// `/account` (extensions §9): the person's profile (name, preferred name, theme), email address
// (with its verification, and a change confirmed by a link to the new address), password, sessions
// (each can be ended) and the apps and agents they connected (each can be disconnected), and
// sign-out. Each part is its own small form; a problem comes back beside its field, with what was
// typed kept (never a password), and every problem is listed at the top.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { timeOf } from "../../http/pages/Dates.js"
import {
  actionButton,
  choices,
  errorFor,
  errorSummary,
  type FieldError,
  fieldId,
  hidden,
  input,
  notice
} from "../../http/pages/Forms.js"
import { displayName, type Html, html, neutralText } from "../../http/pages/Html.js"
import { SIGN_OUT_PATH } from "../Accounts/SignOutPage.js"
import type { Connection } from "../Domain/Connection.js"
import type { Theme } from "../Domain/User.js"
import { passwordBounds, personNameBounds, preferredNameBounds } from "../Domain/User.js"
import { ACCOUNT_PATH } from "../Pages/ConsolePaths.js"
import type { FieldWords } from "../Pages/FormInput.js"
import { type Viewer, viewerPage } from "../Pages/PageViewers.js"
import { NEW_VERIFICATION_PATH } from "../Pages/VerifyEmailPage.js"
import { deviceName } from "./DeviceName.js"
import { type Paged, pager } from "./ListPages.js"

export const profileWords: FieldWords = {
  name: `Enter your name, at most ${personNameBounds.maximum} characters`,
  preferredName: `Enter the name we should call you, at most ${preferredNameBounds.maximum} characters`,
  theme: "Choose a theme"
}

export const emailWords: FieldWords = {
  email: "Enter an email address in the correct format, like name@example.com"
}

export const passwordWords: FieldWords = {
  currentPassword: "Enter your current password",
  newPassword: `Enter a new password of ${passwordBounds.minimum} to ${passwordBounds.maximum} characters`
}

/** What a finished post says at the top of the page it returns to (`?done=`). */
export const accountDone = {
  profile: "Your profile is saved.",
  email:
    "We sent a link to the new address, unless another account uses it. Your address changes when you follow the link; until then, keep using the current one.",
  password: "Your password is changed. Your other sessions were signed out.",
  session: "The session is ended: that browser or program is signed out.",
  connection: "The app is disconnected: its tokens no longer work."
} as const

export type AccountDone = keyof typeof accountDone

export interface SessionRow {
  readonly id: string
  readonly createdAt: Date
  readonly lastSeenAt: Date
  readonly expiresAt: Date
  readonly userAgent: string | null
  readonly current: boolean
}

export interface AccountView {
  readonly viewer: Viewer
  readonly formToken: string
  readonly url: URL
  readonly sessions: ReadonlyArray<SessionRow>
  readonly connections: Paged<Connection>
  readonly done?: string | undefined
  readonly errors?: ReadonlyArray<FieldError>
  /** What the person typed in the form that came back (never a password). */
  readonly typed?: {
    readonly profile?: { readonly name: string; readonly preferredName: string; readonly theme: string }
    readonly email?: string
  }
  readonly problem?: string
  readonly status?: number
}

const themeChoices = [
  { value: "system", label: "Same as this device", hint: "Light or dark, as your system is set" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" }
] satisfies ReadonlyArray<{ value: Theme; label: string; hint?: string }>

/** The name an app gave itself, said to be its own claim. */
export const appName = (connection: { readonly clientName: string | null }) =>
  connection.clientName ?? "An unnamed app"

export const scopeList = (scopes: ReadonlyArray<string>): Html =>
  html`${scopes.map((scope, index) => html`${index === 0 ? "" : ", "}<code>${scope}</code>`)}`

export const accountPage = (view: AccountView): HttpServerResponse.HttpServerResponse => {
  const { user } = view.viewer
  const errors = view.errors ?? []
  const token = hidden("form_token", view.formToken)
  const profile = view.typed?.profile ?? {
    name: user.name,
    preferredName: user.preferredName ?? user.name,
    theme: user.theme
  }
  const others = view.sessions.filter((session) => !session.current).length
  return viewerPage(
    view.viewer,
    {
      title: errors.length === 0 ? "Your account" : "Error: Your account",
      section: "account",
      wide: true,
      body: html`${errorSummary(errors)}<h1>Your account</h1>
${view.done === undefined ? "" : notice("ok", view.done)}
${view.problem === undefined ? "" : notice("error", view.problem)}
<nav aria-label="Parts of this page"><ul class="sections">
<li><a href="#profile">Profile</a></li><li><a href="#email">Email address</a></li><li><a href="#password">Password</a></li>
<li><a href="#sessions">Sessions</a></li><li><a href="#connections">Connected apps</a></li><li><a href="#sign-out">Sign out</a></li>
</ul></nav>

<h2 id="profile">Profile</h2>
<form method="post" action="${ACCOUNT_PATH}#profile" novalidate>
${token}${hidden("action", "profile")}
${input({
  form: "profile",
  name: "name",
  label: "Name",
  type: "text",
  autocomplete: "name",
  required: true,
  maxLength: personNameBounds.maximum,
  hint: "Shown to the other members of your organizations.",
  value: profile.name,
  error: errorFor(errors, fieldId("name", "profile"))
})}
${input({
  form: "profile",
  name: "preferredName",
  label: "Preferred name",
  type: "text",
  autocomplete: "nickname",
  required: true,
  maxLength: preferredNameBounds.maximum,
  hint: "What these pages call you.",
  value: profile.preferredName,
  error: errorFor(errors, fieldId("preferredName", "profile"))
})}
${choices({
  form: "profile",
  name: "theme",
  legend: "Theme",
  kind: "radio",
  choices: themeChoices,
  values: [profile.theme],
  error: errorFor(errors, `${fieldId("theme", "profile")}-1`)
})}
<div class="actions"><button type="submit">Save profile</button></div>
</form>

<h2 id="email">Email address</h2>
<dl class="facts"><dt>Current address</dt><dd>${displayName(user.email)} ${
        user.emailVerified
          ? html`<span class="badge">Verified</span>`
          : html`<span class="badge">Not verified</span>`
      }</dd></dl>
${
  user.emailVerified
    ? ""
    : html`<p>Confirm the address by the link we sent to it, to be able to accept invitations. <a href="${NEW_VERIFICATION_PATH}">Get a new verification link</a></p>`
}
<form method="post" action="${ACCOUNT_PATH}#email" novalidate>
${token}${hidden("action", "email")}
${input({
  form: "email",
  name: "email",
  label: "New email address",
  type: "email",
  autocomplete: "email",
  required: true,
  maxLength: 254,
  spellcheck: false,
  hint: "We send a link to the new address. Your address changes when you follow it.",
  value: view.typed?.email,
  error: errorFor(errors, fieldId("email", "email"))
})}
<div class="actions"><button type="submit">Change email address</button></div>
</form>

<h2 id="password">Password</h2>
<form method="post" action="${ACCOUNT_PATH}#password" novalidate>
${token}${hidden("action", "password")}
${input({
  form: "password",
  name: "currentPassword",
  label: "Current password",
  type: "password",
  autocomplete: "current-password",
  required: true,
  maxLength: 1024,
  error: errorFor(errors, fieldId("currentPassword", "password"))
})}
${input({
  form: "password",
  name: "newPassword",
  label: "New password",
  type: "password",
  autocomplete: "new-password",
  required: true,
  maxLength: passwordBounds.maximum,
  hint: `${passwordBounds.minimum} to ${passwordBounds.maximum} characters. Your other sessions are signed out when it changes.`,
  error: errorFor(errors, fieldId("newPassword", "password"))
})}
<div class="actions"><button type="submit">Change password</button></div>
</form>

<h2 id="sessions">Sessions</h2>
<p>Where your account is signed in${others === 0 ? ": only this browser." : "."}</p>
<table class="list">
<caption class="visually-hidden">Your sessions</caption>
<thead><tr><th scope="col">Device</th><th scope="col">Signed in</th><th scope="col">Last active</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${view.sessions.map(
  (session) => html`<tr>
<td data-label="Device">${displayName(deviceName(session.userAgent))}${session.current ? html` <span class="badge">This browser</span>` : ""}</td>
<td data-label="Signed in">${timeOf(session.createdAt)}</td>
<td data-label="Last active">${timeOf(session.lastSeenAt)}</td>
<td data-label="Expires">${timeOf(session.expiresAt)}</td>
<td class="do">${
    session.current
      ? html`<a href="${SIGN_OUT_PATH}">Sign out</a>`
      : actionButton({
          action: `${ACCOUNT_PATH}#sessions`,
          fields: [
            ["form_token", view.formToken],
            ["action", "end-session"],
            ["session", session.id]
          ],
          label: "End session",
          about: `on ${neutralText(deviceName(session.userAgent))}, last active ${session.lastSeenAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
          kind: "danger"
        })
  }</td>
</tr>`
)}
</tbody>
</table>

<h2 id="connections">Connected apps</h2>
<p>Apps and agents you allowed to act for you on one of your organizations. Their names are their own claims: this service has not verified them.</p>
${
  view.connections.items.length === 0
    ? html`<p>You have not connected any app.</p>`
    : html`<table class="list">
<caption class="visually-hidden">Your connected apps</caption>
<thead><tr><th scope="col">App</th><th scope="col">Organization</th><th scope="col">May</th><th scope="col">Allowed</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${view.connections.items.map(
  (connection) => html`<tr>
<td data-label="App">${displayName(appName(connection))} <span class="hint">(unverified; <code>${neutralText(connection.clientId)}</code>)</span></td>
<td data-label="Organization">${displayName(connection.organization.name)}</td>
<td data-label="May">${scopeList(connection.scopes)} on <code>${connection.resource}</code></td>
<td data-label="Allowed">${timeOf(connection.createdAt)}</td>
<td data-label="Last used">${connection.lastUsedAt === null ? "Never" : timeOf(connection.lastUsedAt)}</td>
<td class="do">${actionButton({
    action: `${ACCOUNT_PATH}#connections`,
    fields: [
      ["form_token", view.formToken],
      ["action", "disconnect"],
      ["connection", connection.id]
    ],
    label: "Disconnect",
    about: neutralText(`${appName(connection)} from ${connection.organization.name}`),
    kind: "danger"
  })}</td>
</tr>`
)}
</tbody>
</table>`
}
${pager(view.url, "connections", "connections", view.connections.nextCursor)}

<h2 id="sign-out">Sign out</h2>
<p><a href="${SIGN_OUT_PATH}">Sign out of this browser</a>. Your other sessions, API tokens and connected apps are not affected.</p>`
    },
    { status: view.status ?? (errors.length === 0 ? 200 : 400) }
  )
}

// The consent page (extensions §8): which app asks (and that its name is its own, unverified claim),
// which resource it would reach, what it could do there in the resource's own words, each a box the
// person may untick to allow less than asked (plain form fields: no script needed), and the person's
// organizations to pick one from (organizations:write only where they are owner or admin). The decision is
// a form post carrying the request back with a token bound to the session; the page is never framed
// nor cached, and its form may send the browser on to the client's redirect URI (`form-action`).
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { choices, hidden, notice } from "../../http/pages/Forms.js"
import { displayName, type Html, html, neutralText } from "../../http/pages/Html.js"
import { pageResponse } from "../../http/pages/Page.js"
import type { Role } from "../Domain/Common.js"
import { ORGANIZATIONS_PATH, withReturnTo } from "../Pages/ConsolePaths.js"
import type { AuthorizationRequest } from "./AuthorizationRequests.js"
import { grantableScopes } from "./AuthorizationServer.js"
import { formTargetOf } from "./RedirectUris.js"

/** Roles that may let an app write (extensions §8: write only where the person is owner or admin). */
const writers: ReadonlyArray<Role> = ["owner", "admin"]

export interface ConsentView {
  readonly request: AuthorizationRequest
  readonly person: { readonly name: string; readonly email: string }
  readonly organizations: ReadonlyArray<{ readonly id: string; readonly name: string; readonly role: Role }>
  /** The form token binding the decision to this session and this request. */
  readonly formToken: string
  /** What the person had ticked, when the page is shown again after a refused decision. */
  readonly granted?: ReadonlyArray<string>
  readonly problem?: string
  readonly status?: number
}

/** The consent form's checkbox of each scope asked for: a field of its own, as every form field is taken once. */
export const grantField = "grant"
export const grantFieldOf = (scope: string) => `${grantField}.${scope}`

const roleWords: Record<Role, string> = { owner: "owner", admin: "admin", member: "member" }

const whoItIs = (request: AuthorizationRequest): Html =>
  request.client.kind === "document"
    ? html`Its identity is the address <code>${displayName(request.client.id)}</code>; its name comes from a document on ${new URL(request.client.id).host}.`
    : html`It registered itself with this service as <code>${displayName(request.client.id)}</code>.`

export const consentPage = (view: ConsentView): HttpServerResponse.HttpServerResponse => {
  const { request } = view
  // The client's name is its own claim: shown neutralised, so it cannot disguise the page.
  const title = neutralText(request.client.name ?? "An unnamed app")
  const name = displayName(request.client.name ?? "An unnamed app")
  const wantsWrite = grantableScopes("member", request.scopes).length < request.scopes.length
  const choosable = (role: Role) => !wantsWrite || writers.includes(role)
  const anyChoosable = view.organizations.some((organization) => choosable(organization.role))
  const redirectTarget = formTargetOf(request.redirectUri)
  return pageResponse(
    {
      title: `Allow ${title}?`,
      body: html`<h1>Allow ${name} to act for you?</h1>
<p class="lead">${name} asks to use your account on one of your organizations.</p>
${view.problem === undefined ? "" : notice("error", view.problem)}
<dl class="facts">
<dt>App</dt><dd>${name} (unverified). ${whoItIs(request)}</dd>
<dt>It would reach</dt><dd>${request.resource.name}, <code>${request.resource.resource}</code></dd>
<dt>Signed in as</dt><dd>${displayName(view.person.name)} (${displayName(view.person.email)})</dd>
<dt>Afterwards</dt><dd>You go back to <code>${displayName(redirectTarget ?? request.redirectUri)}</code>.</dd>
</dl>
${notice("info", "This service has not verified this app: its name is its own claim. Allow only apps you trust. It acts as you would, and only while you are a member of the organization.")}
<form method="post" action="/oauth/authorize">
${request.parameters.map(([field, value]) => hidden(field, value))}
${hidden("consent_token", view.formToken)}
${choices({
  name: grantField,
  legend: "What may it do there?",
  hint: "Untick what you do not allow: the app gets only what stays ticked.",
  kind: "checkbox",
  choices: request.scopes.map((scope) => ({
    value: scope,
    label: request.resource.scopeDescriptions[scope] ?? scope,
    name: grantFieldOf(scope)
  })),
  values: view.granted ?? request.scopes
})}
<fieldset>
<legend>Which organization may it act on?</legend>
${
  view.organizations.length === 0
    ? html`<p>You are not a member of any organization yet. <a href="${withReturnTo(
        ORGANIZATIONS_PATH,
        `/oauth/authorize?${new URLSearchParams(request.parameters.map(([name, value]): [string, string] => [name, value])).toString()}`
      )}">Create an organization</a>, and you come back here to choose it.</p>`
    : view.organizations.map(
        (organization) =>
          html`<label class="choice"><input type="radio" name="organization" value="${organization.id}" required${
            choosable(organization.role) ? "" : html` disabled`
          }> ${displayName(organization.name)} (${roleWords[organization.role]})${
            choosable(organization.role) ? "" : html` — changing it needs an owner or admin`
          }</label>`
      )
}
</fieldset>
${wantsWrite && !anyChoosable ? notice("error", "This app asks to change an organization's details, which only owners and admins may allow.") : ""}
<div class="actions">
${anyChoosable ? html`<button type="submit" name="decision" value="approve">Allow</button>` : ""}
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>
</div>
</form>
<p class="hint">You can end this connection at any time; it also ends if you leave the organization.</p>`
    },
    {
      personal: true,
      status: view.status ?? 200,
      formTargets: redirectTarget === undefined ? [] : [redirectTarget]
    }
  )
}

// `/organizations` (extensions §9): the person's organizations with their role, which one their
// session works in (the active one) and a button to switch, and the form to create one. A person
// sent here from an app's authorization (`return_to`) is told they go back there afterwards.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import {
  actionButton,
  errorFor,
  errorSummary,
  type FieldError,
  hidden,
  input,
  notice
} from "../../http/pages/Forms.js"
import { displayName, html, neutralText } from "../../http/pages/Html.js"
import type { OrganizationWithRole } from "../Domain/Organization.js"
import { organizationBounds } from "../Domain/Organization.js"
import { ORGANIZATIONS_PATH, organizationPath } from "../Pages/ConsolePaths.js"
import type { FieldWords } from "../Pages/FormInput.js"
import { type Viewer, viewerPage } from "../Pages/PageViewers.js"
import { roleNames } from "./RoleWords.js"

/** What to do about each field of the create form that the rules of organizations.create refuse. */
export const createOrganizationWords: FieldWords = {
  name: `Enter the organization's name, at most ${organizationBounds.name} characters`,
  slug: `Use at most ${organizationBounds.slug} lowercase letters, digits and dashes for the short name, or leave it empty`
}

/** What a finished post says at the top of the page it returns to (`?done=`). */
export const organizationsDone = {
  switched: "This organization is now the active one of this browser's session.",
  left: "You left the organization."
} as const

export interface OrganizationsView {
  readonly viewer: Viewer
  readonly organizations: ReadonlyArray<OrganizationWithRole>
  readonly formToken: string
  /** Where the person goes back to after creating one (a path of this service), if anywhere. */
  readonly returnTo: string | undefined
  readonly done?: string | undefined
  /** The create form as typed, and its problems. */
  readonly typed?: { readonly name: string; readonly slug: string }
  readonly errors?: ReadonlyArray<FieldError>
  readonly problem?: string
  readonly status?: number
}

export const organizationsPage = (view: OrganizationsView): HttpServerResponse.HttpServerResponse => {
  const errors = view.errors ?? []
  const active = view.viewer.principal.activeOrganizationId
  const token = hidden("form_token", view.formToken)
  return viewerPage(
    view.viewer,
    {
      title: errors.length === 0 ? "Your organizations" : "Error: Your organizations",
      section: "organizations",
      wide: true,
      body: html`${errorSummary(errors)}<h1>Your organizations</h1>
${view.done === undefined ? "" : notice("ok", view.done)}
${view.problem === undefined ? "" : notice("error", view.problem)}
${
  view.returnTo === undefined
    ? ""
    : notice(
        "info",
        html`Create an organization (or pick one below), then <a href="${view.returnTo}">go back to where you were</a>: the app that sent you asks to act on one of your organizations.`
      )
}
${
  view.organizations.length === 0
    ? html`<p>You are not a member of any organization yet. Create one below, or ask an organization's owner or admin to invite you.</p>`
    : html`<table class="list">
<caption>Organizations you belong to, and your role in each</caption>
<thead><tr><th scope="col">Organization</th><th scope="col">Your role</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${view.organizations.map(
  (organization) => html`<tr>
<td data-label="Organization"><a href="${organizationPath(organization.id)}">${displayName(organization.name)}</a>${
    organization.id === active ? html` <span class="badge">Active</span>` : ""
  }</td>
<td data-label="Your role">${roleNames[organization.role]}</td>
<td class="do">${
    organization.id === active
      ? ""
      : actionButton({
          action: ORGANIZATIONS_PATH,
          fields: [
            ["form_token", view.formToken],
            ["action", "switch"],
            ["organization", organization.id]
          ],
          label: "Make active",
          about: neutralText(organization.name),
          kind: "secondary"
        })
  }</td>
</tr>`
)}
</tbody>
</table>
<p class="hint">The active organization is the one your session works in by default (the API's <code>activeOrganizationId</code>).</p>`
}
<h2 id="create">Create an organization</h2>
<p>You become its owner, and it becomes your active organization.</p>
<form method="post" action="${ORGANIZATIONS_PATH}" novalidate>
${token}
${hidden("action", "create")}
${view.returnTo === undefined ? "" : hidden("return_to", view.returnTo)}
${input({
  name: "name",
  label: "Organization name",
  type: "text",
  autocomplete: "organization",
  required: true,
  maxLength: organizationBounds.name,
  value: view.typed?.name,
  error: errorFor(errors, "field-name")
})}
${input({
  name: "slug",
  label: "Short name (optional)",
  type: "text",
  autocomplete: "off",
  spellcheck: false,
  maxLength: organizationBounds.slug,
  hint: "Lowercase letters, digits and dashes, used in addresses. Left empty, one is made from the name.",
  value: view.typed?.slug,
  error: errorFor(errors, "field-slug")
})}
<div class="actions"><button type="submit">Create organization</button></div>
</form>`
    },
    { status: view.status ?? (errors.length === 0 ? 200 : 400) }
  )
}

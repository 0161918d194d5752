// `/organizations/{id}` (extensions §9): one organization as the person's role lets them see and
// change it. Its settings (the update form carries the version it was read at, so a stale form is
// refused and shows the current values); its members (change role, remove, leave, as §3 allows, the
// last-owner rule said in words); its invitations (create, revoke); its API tokens (a new one is
// shown once, as selectable text with a copy button for browsers with script); its connected apps;
// and its notebook (catalog-extensions §12). Each part is a small form of its own, and only what the
// person may do is offered; the services judge every post again.
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { timeOf } from "../../http/pages/Dates.js"
import {
  actionButton,
  choices,
  errorFor,
  errorSummary,
  type FieldError,
  fieldId,
  firstChoiceId,
  hidden,
  input,
  notice,
  select,
  textarea
} from "../../http/pages/Forms.js"
import { displayName, type Html, html, neutralText } from "../../http/pages/Html.js"
import { type Role, type Scope, scopeDescriptions } from "../Domain/Common.js"
import type { OrganizationConnection } from "../Domain/Connection.js"
import type { MemberId } from "../Domain/Ids.js"
import type { Invitation } from "../Domain/Invitation.js"
import type { Member } from "../Domain/Member.js"
import { type Organization, organizationBounds } from "../Domain/Organization.js"
import { removalRefusal, roleChangeRefusal } from "../Members/Members.js"
import type { Note } from "../Notes/Note.js"
import { organizationPath } from "../Pages/ConsolePaths.js"
import type { FieldWords } from "../Pages/FormInput.js"
import { type Viewer, viewerPage } from "../Pages/PageViewers.js"
import type { TokenItem } from "../Tokens/Api.js"
import { appName, scopeList } from "./AccountPage.js"
import { type Paged, pager } from "./ListPages.js"
import { roleDescriptions, roleNames } from "./RoleWords.js"

export const settingsWords: FieldWords = {
  name: `Enter the organization's name, at most ${organizationBounds.name} characters`,
  companyName: `Use at most ${organizationBounds.companyName} characters for the company name`,
  website:
    "Enter a web address starting with https:// or http://, like https://example.com, or leave it empty",
  phone: `Use at most ${organizationBounds.phone} characters for the phone number`,
  address: `Use at most ${organizationBounds.address} characters for the address`
}

export const invitationWords: FieldWords = {
  email: "Enter an email address in the correct format, like name@example.com",
  role: "Choose the role the person gets"
}

export const tokenWords: FieldWords = {
  name: "Enter a name for the token, at most 80 characters",
  scopes: "Choose at least one thing the token may do",
  expiresInDays: "Enter a number of days from 1 to 365"
}

export const TOKEN_LIFETIME_DAYS = { default: 90, minimum: 1, maximum: 365 } as const

/** What a finished post says at the top of the page it returns to (`?done=`). */
export const organizationDone = {
  created: "The organization is created, and you are its owner.",
  settings: "The settings are saved.",
  role: "The role is changed.",
  removed: "The member is removed from the organization. Their API tokens and connected apps here are ended.",
  invited: "The invitation is sent. The person gets a link by email to accept it.",
  "invitation-revoked": "The invitation is revoked: its link no longer works.",
  "token-revoked": "The API token is revoked: it no longer works.",
  disconnected: "The app is disconnected: its tokens no longer work.",
  "note-deleted": "The note is deleted."
} as const
export type OrganizationDone = keyof typeof organizationDone

/** The last-owner rule of §3, in words. */
export const LAST_OWNER_WORDS =
  "An organization always keeps at least one owner: the last owner can be neither given another role nor removed, and cannot leave. Make another member owner first."

export const STALE_WORDS =
  "Someone else changed these settings after you opened this page, so nothing you typed was saved. The form now shows the current values: make your changes again and save."

export interface SettingsTyped {
  readonly name: string
  readonly companyName: string
  readonly website: string
  readonly phone: string
  readonly address: string
}

/** A token just created: shown on this answer only. */
export interface NewToken {
  readonly name: string
  readonly token: string
  readonly expiresAt: Date
}

export interface OrganizationView {
  readonly viewer: Viewer
  readonly formToken: string
  readonly url: URL
  readonly organization: Organization
  /** The viewer's membership, read now. */
  readonly me: { readonly id: MemberId; readonly role: Role }
  readonly owners: number
  readonly members: Paged<Member>
  readonly invitations: Paged<Invitation>
  /** Owners' and admins' lists only. */
  readonly tokens: Paged<typeof TokenItem.Type> | undefined
  readonly connections: Paged<OrganizationConnection> | undefined
  readonly notes: Paged<Note>
  readonly done?: string | undefined
  readonly errors?: ReadonlyArray<FieldError>
  readonly problem?: string
  /** The settings form as typed (refused), and, when it was stale, what was not saved. */
  readonly typed?: {
    /** The settings as typed, and the version the form was read at (kept: a newer one is not slipped in). */
    readonly settings?: { readonly values: SettingsTyped; readonly version: string }
    readonly stale?: SettingsTyped
    readonly invitation?: { readonly email: string; readonly role: string }
    readonly token?: { readonly name: string; readonly scopes: ReadonlyArray<string>; readonly days: string }
  }
  readonly newToken?: NewToken
  readonly status?: number
}

const isManager = (role: Role) => role === "owner" || role === "admin"

const settingsOf = (organization: Organization): SettingsTyped => ({
  name: organization.name,
  companyName: organization.companyName ?? "",
  website: organization.website ?? "",
  phone: organization.phone ?? "",
  address: organization.address ?? ""
})

const settingsSection = (view: OrganizationView, errors: ReadonlyArray<FieldError>, action: string): Html => {
  const { organization } = view
  if (!isManager(view.me.role)) {
    const fact = (label: string, value: string | null) =>
      html`<dt>${label}</dt><dd>${value === null || value === "" ? html`<span class="hint">Not given</span>` : displayName(value)}</dd>`
    return html`<h2 id="settings">Settings</h2>
<dl class="facts">${fact("Name", organization.name)}${fact("Short name", organization.slug)}${fact("Company name", organization.companyName)}${fact("Website", organization.website)}${fact("Phone", organization.phone)}${fact("Address", organization.address)}</dl>
<p class="hint">Owners and admins change these settings.</p>`
  }
  const values = view.typed?.settings?.values ?? settingsOf(organization)
  const version = view.typed?.settings?.version ?? String(organization.version)
  const stale = view.typed?.stale
  const field = (name: keyof SettingsTyped) => errorFor(errors, fieldId(name, "settings"))
  return html`<h2 id="settings">Settings</h2>
${
  stale === undefined
    ? ""
    : html`${notice("error", html`<strong>Changed by someone else.</strong> ${STALE_WORDS}`)}
<details><summary>What you typed (not saved)</summary><dl class="facts">
<dt>Name</dt><dd>${displayName(stale.name)}</dd><dt>Company name</dt><dd>${displayName(stale.companyName)}</dd>
<dt>Website</dt><dd>${displayName(stale.website)}</dd><dt>Phone</dt><dd>${displayName(stale.phone)}</dd>
<dt>Address</dt><dd>${displayName(stale.address)}</dd></dl></details>`
}
<form method="post" action="${action}#settings" novalidate>
${hidden("form_token", view.formToken)}${hidden("action", "settings")}${hidden("version", version)}
${input({ form: "settings", name: "name", label: "Name", type: "text", autocomplete: "organization", required: true, maxLength: organizationBounds.name, value: values.name, error: field("name") })}
<dl class="facts"><dt>Short name</dt><dd><code>${organization.slug}</code></dd></dl>
${input({ form: "settings", name: "companyName", label: "Company name (optional)", type: "text", autocomplete: "off", maxLength: organizationBounds.companyName, value: values.companyName, error: field("companyName") })}
${input({ form: "settings", name: "website", label: "Website (optional)", type: "url", autocomplete: "url", spellcheck: false, hint: "A web address such as https://example.com.", value: values.website, error: field("website") })}
${input({ form: "settings", name: "phone", label: "Phone (optional)", type: "tel", autocomplete: "tel", maxLength: organizationBounds.phone, value: values.phone, error: field("phone") })}
${textarea({ form: "settings", name: "address", label: "Address (optional)", autocomplete: "street-address", maxLength: organizationBounds.address, value: values.address, error: field("address") })}
<div class="actions"><button type="submit">Save settings</button></div>
</form>`
}

/** The roles `actor` may give `member`, or none. */
const rolesToOffer = (actor: Role, member: Member): ReadonlyArray<Role> =>
  // The least power first: a "Change role" pressed without a choice never makes an owner.
  (["member", "admin", "owner"] as const).filter(
    (role) => role !== member.role && roleChangeRefusal(actor, member.role, role) === undefined
  )

const membersSection = (view: OrganizationView, action: string): Html => {
  const { me } = view
  const lastOwner = me.role === "owner" && view.owners <= 1
  const memberRow = (member: Member) => {
    const self = member.id === me.id
    const offered = rolesToOffer(me.role, member)
    // The last owner is offered nothing that would leave the organization without one.
    const canChange = offered.length > 0 && !(member.role === "owner" && view.owners <= 1)
    const canRemove =
      !self && removalRefusal(me, member) === undefined && !(member.role === "owner" && view.owners <= 1)
    const about = neutralText(member.name)
    return html`<tr>
<td data-label="Member">${displayName(member.name)}${self ? html` <span class="badge">You</span>` : ""}<br><span class="hint">${displayName(member.email)}</span></td>
<td data-label="Role">${roleNames[member.role]}</td>
<td class="do"><div class="row-actions">${
      canChange
        ? html`<form class="inline" method="post" action="${action}#members"><span class="choice-row">${hidden("form_token", view.formToken)}${hidden("action", "role")}${hidden("member", member.id)}${select(
            {
              name: "role",
              form: `member-${member.id}`,
              label: `New role for ${about}`,
              labelHidden: true,
              choices: offered.map((role) => ({ value: role, label: roleNames[role] }))
            }
          )}<button type="submit" class="small secondary">Change role<span class="visually-hidden"> of ${about}</span></button></span></form>`
        : ""
    } ${
      canRemove
        ? actionButton({
            action: `${action}#members`,
            fields: [
              ["form_token", view.formToken],
              ["action", "remove"],
              ["member", member.id]
            ],
            label: "Remove",
            about,
            kind: "danger"
          })
        : ""
    }</div></td>
</tr>`
  }
  return html`<h2 id="members">Members</h2>
<p>Your role: <strong>${roleNames[me.role]}</strong> (${roleDescriptions[me.role]}).</p>
<table class="list">
<caption class="visually-hidden">Members and their roles</caption>
<thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${view.members.items.map(memberRow)}</tbody>
</table>
${pager(view.url, "members", "members", view.members.nextCursor)}
<p class="hint">${LAST_OWNER_WORDS}</p>
<h3 id="leave">Leave this organization</h3>
${
  lastOwner
    ? html`<p>You are its only owner, so you cannot leave yet: make another member owner first.</p>`
    : html`<p>You lose access to it at once. Your API tokens and connected apps here are ended.</p>
<form method="post" action="${action}#members">${hidden("form_token", view.formToken)}${hidden("action", "leave")}
<div class="actions"><button type="submit" class="danger">Leave organization</button></div></form>`
}`
}

const invitationRoles = (actor: Role): ReadonlyArray<Role> =>
  actor === "owner" ? ["member", "admin", "owner"] : ["member", "admin"]

const invitationsSection = (
  view: OrganizationView,
  errors: ReadonlyArray<FieldError>,
  action: string
): Html => {
  const { me } = view
  const manager = isManager(me.role)
  const typed = view.typed?.invitation
  const canRevoke = (invitation: Invitation) =>
    manager && invitation.status === "pending" && !(me.role === "admin" && invitation.role === "owner")
  return html`<h2 id="invitations">Invitations</h2>
${
  view.invitations.items.length === 0
    ? html`<p>No invitations yet.</p>`
    : html`<table class="list">
<caption class="visually-hidden">Invitations</caption>
<thead><tr><th scope="col">Email address</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${view.invitations.items.map(
        (invitation) => html`<tr>
<td data-label="Email address">${displayName(invitation.email)}</td>
<td data-label="Role">${roleNames[invitation.role]}</td>
<td data-label="Status">${invitation.status[0]?.toUpperCase()}${invitation.status.slice(1)}</td>
<td data-label="Expires">${timeOf(invitation.expiresAt)}</td>
<td class="do">${
          canRevoke(invitation)
            ? actionButton({
                action: `${action}#invitations`,
                fields: [
                  ["form_token", view.formToken],
                  ["action", "revoke-invitation"],
                  ["invitation", invitation.id]
                ],
                label: "Revoke",
                about: `the invitation of ${neutralText(invitation.email)}`,
                kind: "danger"
              })
            : ""
        }</td>
</tr>`
      )}</tbody>
</table>`
}
${pager(view.url, "invitations", "invitations", view.invitations.nextCursor)}
${
  manager
    ? html`<h3>Invite someone</h3>
<form method="post" action="${action}#invitations" novalidate>
${hidden("form_token", view.formToken)}${hidden("action", "invite")}
${input({ form: "invite", name: "email", label: "Email address", type: "email", autocomplete: "off", spellcheck: false, required: true, maxLength: 254, hint: "We send them a link; they accept it once they have verified this address.", value: typed?.email, error: errorFor(errors, fieldId("email", "invite")) })}
${choices({
  form: "invite",
  name: "role",
  legend: "Role",
  kind: "radio",
  choices: invitationRoles(me.role).map((role) => ({
    value: role,
    label: roleNames[role],
    hint: roleDescriptions[role]
  })),
  values: [typed?.role ?? "member"],
  ...(me.role === "admin" ? { hint: "Only owners invite owners." } : {}),
  error: errorFor(errors, firstChoiceId("role", "invite"))
})}
<div class="actions"><button type="submit">Send invitation</button></div>
</form>`
    : html`<p class="hint">Owners and admins invite people.</p>`
}`
}

const tokensSection = (view: OrganizationView, errors: ReadonlyArray<FieldError>, action: string): Html => {
  const tokens = view.tokens
  if (tokens === undefined) return html``
  const typed = view.typed?.token
  const fresh = view.newToken
  return html`<h2 id="tokens">API tokens</h2>
<p>Programs use an API token to act on this organization through the API, for the person who created it: with what both its permissions and that person's role allow.</p>
${
  fresh === undefined
    ? ""
    : html`<div class="notice ok" role="status">
<p><strong>Your new token ${displayName(fresh.name)}</strong>, valid until ${timeOf(fresh.expiresAt)}. Copy it now: it is shown only this once, and we keep only a fingerprint of it.</p>
<code class="secret" id="new-token">${fresh.token}</code>
<div class="actions"><button type="button" class="secondary" data-copy="new-token" hidden>Copy token</button><span id="new-token-status" role="status"></span></div>
</div>`
}
${
  tokens.items.length === 0
    ? html`<p>No API tokens.</p>`
    : html`<table class="list">
<caption class="visually-hidden">API tokens</caption>
<thead><tr><th scope="col">Name</th><th scope="col">May</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${tokens.items.map(
        (token) => html`<tr>
<td data-label="Name">${displayName(token.name)} <span class="hint">(<code>${token.prefix}…</code>)</span></td>
<td data-label="May">${scopeList(token.scopes)}</td>
<td data-label="Created">${timeOf(token.createdAt)} by ${displayName(token.createdBy.name)}</td>
<td data-label="Expires">${timeOf(token.expiresAt)}</td>
<td data-label="Last used">${token.lastUsedAt === null ? "Never" : timeOf(token.lastUsedAt)}</td>
<td class="do">${actionButton({
          action: `${action}#tokens`,
          fields: [
            ["form_token", view.formToken],
            ["action", "revoke-token"],
            ["token", token.id]
          ],
          label: "Revoke",
          about: `the token ${neutralText(token.name)}`,
          kind: "danger"
        })}</td>
</tr>`
      )}</tbody>
</table>`
}
${pager(view.url, "tokens", "tokens", tokens.nextCursor)}
<h3>Create an API token</h3>
<form method="post" action="${action}#tokens" novalidate>
${hidden("form_token", view.formToken)}${hidden("action", "create-token")}
${input({ form: "token", name: "name", label: "Token name", type: "text", autocomplete: "off", required: true, maxLength: 80, hint: "To tell it apart, e.g. the program that uses it.", value: typed?.name, error: errorFor(errors, fieldId("name", "token")) })}
${choices({
  form: "token",
  name: "scopes",
  legend: "What it may do",
  kind: "checkbox",
  choices: (["organizations:read", "organizations:write"] as const).map((scope: Scope) => ({
    value: scope,
    label: scope,
    hint: scopeDescriptions[scope],
    name: `scopes.${scope}`
  })),
  values: typed?.scopes ?? ["organizations:read"],
  error: errorFor(errors, firstChoiceId("scopes", "token"))
})}
${input({ form: "token", name: "expiresInDays", label: "Expires after (days)", type: "number", autocomplete: "off", required: true, min: TOKEN_LIFETIME_DAYS.minimum, max: TOKEN_LIFETIME_DAYS.maximum, hint: `${TOKEN_LIFETIME_DAYS.minimum} to ${TOKEN_LIFETIME_DAYS.maximum} days.`, value: typed?.days ?? String(TOKEN_LIFETIME_DAYS.default), error: errorFor(errors, fieldId("expiresInDays", "token")) })}
<div class="actions"><button type="submit">Create token</button></div>
</form>`
}

const connectionsSection = (view: OrganizationView, action: string): Html => {
  const connections = view.connections
  if (connections === undefined) return html``
  return html`<h2 id="connections">Connected apps</h2>
<p>Apps and agents that members allowed to act for them on this organization. Their names are their own claims: this service has not verified them.</p>
${
  connections.items.length === 0
    ? html`<p>No app is connected to this organization.</p>`
    : html`<table class="list">
<caption class="visually-hidden">Connected apps</caption>
<thead><tr><th scope="col">App</th><th scope="col">For</th><th scope="col">May</th><th scope="col">Allowed</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${connections.items.map(
        (connection) => html`<tr>
<td data-label="App">${displayName(appName(connection))} <span class="hint">(unverified; <code>${neutralText(connection.clientId)}</code>)</span></td>
<td data-label="For">${displayName(connection.user.name)}</td>
<td data-label="May">${scopeList(connection.scopes)} on <code>${connection.resource}</code></td>
<td data-label="Allowed">${timeOf(connection.createdAt)}</td>
<td data-label="Last used">${connection.lastUsedAt === null ? "Never" : timeOf(connection.lastUsedAt)}</td>
<td class="do">${actionButton({
          action: `${action}#connections`,
          fields: [
            ["form_token", view.formToken],
            ["action", "disconnect"],
            ["connection", connection.id]
          ],
          label: "Disconnect",
          about: neutralText(`${appName(connection)} of ${connection.user.name}`),
          kind: "danger"
        })}</td>
</tr>`
      )}</tbody>
</table>`
}
${pager(view.url, "connections", "connections", connections.nextCursor)}`
}

const notesSection = (view: OrganizationView, action: string): Html => {
  const { me } = view
  const mayDelete = (note: Note) => isManager(me.role) || note.author.id === view.viewer.principal.userId
  return html`<h2 id="notebook">Notebook</h2>
<p>Notes that agents saved on episodes for the members who connected them.</p>
${
  view.notes.items.length === 0
    ? html`<p>The notebook is empty.</p>`
    : html`<table class="list">
<caption class="visually-hidden">Notes</caption>
<thead><tr><th scope="col">Note</th><th scope="col">On</th><th scope="col">Saved</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${view.notes.items.map(
        (note) => html`<tr>
<td data-label="Note">${displayName(note.text)}</td>
<td data-label="On">Episode ${note.episodeSlug}${note.paragraphIndex === null ? "" : `, paragraph ${note.paragraphIndex}`}</td>
<td data-label="Saved">${timeOf(note.createdAt)} for ${displayName(note.author.name)}</td>
<td class="do">${
          mayDelete(note)
            ? actionButton({
                action: `${action}#notebook`,
                fields: [
                  ["form_token", view.formToken],
                  ["action", "delete-note"],
                  ["note", note.id]
                ],
                label: "Delete",
                about: `the note on episode ${note.episodeSlug}`,
                kind: "danger"
              })
            : ""
        }</td>
</tr>`
      )}</tbody>
</table>`
}
${pager(view.url, "notes", "notebook", view.notes.nextCursor)}`
}

export const organizationPage = (view: OrganizationView): HttpServerResponse.HttpServerResponse => {
  const errors = view.errors ?? []
  const { organization } = view
  const action = organizationPath(organization.id)
  const manager = isManager(view.me.role)
  const parts: ReadonlyArray<readonly [string, string]> = [
    ["settings", "Settings"],
    ["members", "Members"],
    ["invitations", "Invitations"],
    ...(manager
      ? ([
          ["tokens", "API tokens"],
          ["connections", "Connected apps"]
        ] as const)
      : []),
    ["notebook", "Notebook"]
  ]
  const title = neutralText(organization.name)
  return viewerPage(
    view.viewer,
    {
      title: errors.length === 0 ? title : `Error: ${title}`,
      section: "organizations",
      wide: true,
      script: view.newToken !== undefined,
      body: html`${errorSummary(errors)}<p><a href="/organizations">Your organizations</a></p>
<h1>${displayName(organization.name)}</h1>
${view.done === undefined ? "" : notice("ok", view.done)}
${view.problem === undefined ? "" : notice("error", view.problem)}
<nav aria-label="Parts of this page"><ul class="sections">${parts.map(
        ([id, label]) => html`<li><a href="#${id}">${label}</a></li>`
      )}</ul></nav>
${settingsSection(view, errors, action)}
${membersSection(view, action)}
${invitationsSection(view, errors, action)}
${tokensSection(view, errors, action)}
${connectionsSection(view, action)}
${notesSection(view, action)}`
    },
    { status: view.status ?? (errors.length === 0 ? 200 : 400) }
  )
}

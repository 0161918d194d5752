// `/organizations/{id}`: one organization's page (OrganizationPage.ts) and its posts, each with the
// schema and the service call of its JSON operation: `settings` (organizations.update, with the
// version the form was read at), `role` (members.updateRole), `remove` and `leave` (members.remove),
// `invite` and `revoke-invitation` (invitations.*), `create-token` and `revoke-token` (tokens.*),
// `disconnect` (organizations.revokeConnection) and `delete-note` (notes.delete). A post that
// succeeds leads back to the page (303), which says so, except a new token, which is shown on the
// answer itself, once. A refusal of the services is the page again, saying why in words.
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import type { FieldError } from "../../http/pages/Forms.js"
import { seeOther } from "../Accounts/SignInRoutes.js"
import { OrganizationNotFound } from "../Domain/Errors.js"
import { GrantId, InvitationId, MemberId, OrganizationId, TokenId } from "../Domain/Ids.js"
import { CreateInvitationRequest } from "../Invitations/Api.js"
import { Invitations } from "../Invitations/Invitations.js"
import { Members } from "../Members/Members.js"
import { NoteId } from "../Notes/Note.js"
import { Notes } from "../Notes/Notes.js"
import { Connections } from "../OAuth/Connections.js"
import { UpdateOrganizationRequest } from "../Organizations/Api.js"
import { OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import { Organizations } from "../Organizations/Organizations.js"
import { ORGANIZATIONS_PATH, organizationPath } from "../Pages/ConsolePaths.js"
import { decodeFields } from "../Pages/FormInput.js"
import type { Viewer } from "../Pages/PageViewers.js"
import { CreateTokenRequest } from "../Tokens/Api.js"
import { OrganizationTokens } from "../Tokens/OrganizationTokens.js"
import { type ConsoleFailure, consoleFormToken, consoleRoute } from "./ConsoleRoute.js"
import { listPage } from "./ListPages.js"
import {
  invitationWords,
  LAST_OWNER_WORDS,
  type OrganizationDone,
  type OrganizationView,
  organizationDone,
  organizationPage,
  type SettingsTyped,
  settingsWords,
  tokenWords
} from "./OrganizationPage.js"

/** The settings form is the largest: five fields (an address of 500 characters), a token, a version. */
const MAX_FORM_BYTES = 16 * 1024

const PATH_PREFIX = `${ORGANIZATIONS_PATH}/`

/** The organization a page's path names, if it names one at all. */
const organizationIdOf = (pathname: string): Option.Option<OrganizationId> => {
  if (!pathname.startsWith(PATH_PREFIX)) return Option.none()
  try {
    return Schema.decodeUnknownOption(OrganizationId)(decodeURIComponent(pathname.slice(PATH_PREFIX.length)))
  } catch {
    return Option.none()
  }
}

const idOf =
  <A, I>(schema: Schema.Schema<A, I, never>) =>
  (value: string | undefined) =>
    Schema.decodeUnknownOption(schema)(value)

const decodeMemberId = idOf(MemberId)
const decodeInvitationId = idOf(InvitationId)
const decodeTokenId = idOf(TokenId)
const decodeGrantId = idOf(GrantId)
const decodeNoteId = idOf(NoteId)

const consoleFailures = new Set<string>([
  "UnreadableForm",
  "RateLimited",
  "DatabaseUnavailable",
  "Unauthenticated",
  "OrganizationNotFound"
])
const isConsoleFailure = (error: unknown): error is ConsoleFailure =>
  Predicate.hasProperty(error, "_tag") && consoleFailures.has(String(error._tag))

/** How the page says a refusal of the services, and its status. */
interface Refusal {
  readonly status: number
  readonly problem: string
}

/** A service's refusal in the person's words; the services' own messages say the rest. */
const refusalOf = (error: { readonly _tag: string; readonly message: string }): Refusal => {
  switch (error._tag) {
    case "LastOwner":
      return { status: 400, problem: `Nothing was changed. ${LAST_OWNER_WORDS}` }
    case "RoleNotPermitted":
      return {
        status: 403,
        problem: `Your role does not allow this, so nothing was changed. ${error.message}`
      }
    case "MemberNotFound":
      return { status: 404, problem: "That person is no longer a member, so nothing was changed." }
    case "InvitationNotFound":
      return { status: 404, problem: "That invitation does not exist (any more), so nothing was changed." }
    case "InvitationNotPending":
      return { status: 409, problem: `Nothing was changed. ${error.message}` }
    case "TokenNotFound":
      return { status: 404, problem: "That API token was already revoked." }
    case "ConnectionNotFound":
      return { status: 404, problem: "That app was already disconnected." }
    case "NoteNotFound":
      return { status: 404, problem: "That note was already deleted." }
    default:
      return { status: 400, problem: `Nothing was changed. ${error.message}` }
  }
}

/** `effect`'s refusals as the page's (Left); what every console page answers alike stays a failure. */
const refusals = <A, E extends { readonly _tag: string; readonly message: string }, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<Either.Either<A, Refusal>, Extract<E, ConsoleFailure>, R> =>
  effect.pipe(
    Effect.map((value) => Either.right(value)),
    Effect.catchAll((error) =>
      isConsoleFailure(error)
        ? Effect.fail(error as Extract<E, ConsoleFailure>)
        : Effect.succeed(Either.left(refusalOf(error)))
    )
  )

const notAMatch = (what: string): Refusal => ({ status: 404, problem: `${what} Nothing was changed.` })

export const OrganizationRoutes = consoleRoute(
  Effect.gen(function* () {
    const organizations = yield* Organizations
    const access = yield* OrganizationAccess
    const members = yield* Members
    const invitations = yield* Invitations
    const tokens = yield* OrganizationTokens
    const connections = yield* Connections
    const notes = yield* Notes

    const purposeOf = (id: OrganizationId) => organizationPath(id)

    type More = Omit<
      OrganizationView,
      | "viewer"
      | "formToken"
      | "url"
      | "organization"
      | "me"
      | "owners"
      | "members"
      | "invitations"
      | "tokens"
      | "connections"
      | "notes"
    >

    /** The page as it is now, for `viewer`, with what the post that led here has to say. */
    const page = (viewer: Viewer, url: URL, id: OrganizationId, more: More = {}) =>
      Effect.gen(function* () {
        const { principal } = viewer
        const me = yield* access.membership(principal, id)
        const manager = me.role !== "member"
        const [organization, owners, memberList, invitationList, tokenList, connectionList, noteList] =
          yield* Effect.all([
            organizations.get(principal, id),
            members.ownerCount(principal, id),
            listPage((page) => members.list(principal, id, page), url.searchParams.get("members")),
            listPage((page) => invitations.list(principal, id, page), url.searchParams.get("invitations")),
            manager
              ? Effect.map(
                  listPage((page) => tokens.list(principal, id, page), url.searchParams.get("tokens")),
                  Option.some
                )
              : Effect.succeedNone,
            manager
              ? Effect.map(
                  listPage(
                    (page) => connections.listForOrganization(principal, id, page),
                    url.searchParams.get("connections")
                  ),
                  Option.some
                )
              : Effect.succeedNone,
            listPage((page) => notes.list(principal, id, page), url.searchParams.get("notes"))
          ]).pipe(
            // A session is judged by its membership, read above: a member's reads are never refused
            // for their role, and a session has no token scopes to miss.
            Effect.catchTags({
              RoleNotPermitted: () => Effect.fail(new OrganizationNotFound()),
              TokenForAnotherOrganization: Effect.die,
              TokenScopeMissing: Effect.die,
              DelegatorNotMember: Effect.die
            })
          )
        return organizationPage({
          viewer,
          formToken: consoleFormToken(viewer, purposeOf(id)),
          url,
          organization,
          me,
          owners,
          members: memberList,
          invitations: invitationList,
          tokens: Option.getOrUndefined(tokenList),
          connections: Option.getOrUndefined(connectionList),
          notes: noteList,
          ...more
        })
      })

    const done = (id: OrganizationId, what: OrganizationDone, anchor: string) =>
      seeOther(`${organizationPath(id)}?done=${what}#${anchor}`)

    /** The page after an action on one row: done, or the page saying why not. */
    const settle = (
      viewer: Viewer,
      url: URL,
      id: OrganizationId,
      outcome: Either.Either<unknown, Refusal>,
      what: OrganizationDone,
      anchor: string
    ) =>
      Either.isRight(outcome)
        ? Effect.succeed(done(id, what, anchor))
        : page(viewer, url, id, { status: outcome.left.status, problem: outcome.left.problem })

    const refused = (viewer: Viewer, url: URL, id: OrganizationId, refusal: Refusal) =>
      page(viewer, url, id, { status: refusal.status, problem: refusal.problem })

    const fieldsRefused = (
      viewer: Viewer,
      url: URL,
      id: OrganizationId,
      errors: ReadonlyArray<FieldError>,
      more: More = {}
    ) => page(viewer, url, id, { errors, ...more })

    const post = (viewer: Viewer, fields: ReadonlyMap<string, string>, url: URL, id: OrganizationId) =>
      Effect.gen(function* () {
        const { principal } = viewer
        switch (fields.get("action")) {
          case "settings": {
            const typed: SettingsTyped = {
              name: fields.get("name") ?? "",
              companyName: fields.get("companyName") ?? "",
              website: (fields.get("website") ?? "").trim(),
              phone: fields.get("phone") ?? "",
              address: fields.get("address") ?? ""
            }
            const version = fields.get("version") ?? ""
            const input = decodeFields(
              UpdateOrganizationRequest,
              { ...typed, version: /^\d{1,16}$/.test(version) ? Number(version) : version },
              settingsWords,
              { form: "settings" }
            )
            if (Either.isLeft(input)) {
              return yield* fieldsRefused(viewer, url, id, input.left, {
                typed: { settings: { values: typed, version } }
              })
            }
            const updated = yield* organizations.update(principal, id, input.right).pipe(
              Effect.map(() => Either.right("saved" as const)),
              Effect.catchTag("StaleVersion", () => Effect.succeed(Either.left("stale" as const))),
              refusals
            )
            if (Either.isLeft(updated)) return yield* refused(viewer, url, id, updated.left)
            if (Either.isLeft(updated.right)) {
              // Nothing is overwritten: the form shows the current values, and what was typed beside.
              return yield* page(viewer, url, id, { status: 409, typed: { stale: typed } })
            }
            return done(id, "settings", "settings")
          }
          case "role": {
            const member = decodeMemberId(fields.get("member"))
            const role = fields.get("role")
            if (Option.isNone(member) || (role !== "owner" && role !== "admin" && role !== "member")) {
              return yield* refused(viewer, url, id, notAMatch("Choose a member and a role."))
            }
            const outcome = yield* refusals(members.updateRole(principal, id, member.value, role))
            return yield* settle(viewer, url, id, outcome, "role", "members")
          }
          case "remove": {
            const member = decodeMemberId(fields.get("member"))
            if (Option.isNone(member)) {
              return yield* refused(viewer, url, id, notAMatch("That person is no longer a member."))
            }
            const outcome = yield* refusals(members.remove(principal, id, member.value))
            return yield* settle(viewer, url, id, outcome, "removed", "members")
          }
          case "leave": {
            const me = yield* access.membership(principal, id)
            const outcome = yield* refusals(members.remove(principal, id, me.id))
            if (Either.isRight(outcome)) return seeOther(`${ORGANIZATIONS_PATH}?done=left`)
            return yield* refused(viewer, url, id, outcome.left)
          }
          case "invite": {
            const typed = { email: (fields.get("email") ?? "").trim(), role: fields.get("role") ?? "" }
            const input = decodeFields(CreateInvitationRequest, typed, invitationWords, {
              form: "invite",
              ids: { role: "field-invite-role-1" }
            })
            const more = { typed: { invitation: typed } }
            if (Either.isLeft(input)) return yield* fieldsRefused(viewer, url, id, input.left, more)
            const created = yield* invitations.create(principal, id, input.right).pipe(
              Effect.map(() => Option.none<string>()),
              Effect.catchTags({
                InviteeAlreadyMember: () => Effect.succeedSome("This person is already a member"),
                InvitationAlreadyPending: () =>
                  Effect.succeedSome(
                    "This address already has a pending invitation: revoke it first to send a new one"
                  )
              }),
              refusals
            )
            if (Either.isLeft(created)) return yield* refused(viewer, url, id, created.left)
            if (Option.isSome(created.right)) {
              return yield* fieldsRefused(
                viewer,
                url,
                id,
                [{ field: "field-invite-email", text: created.right.value }],
                { ...more, status: 409 }
              )
            }
            return done(id, "invited", "invitations")
          }
          case "revoke-invitation": {
            const invitation = decodeInvitationId(fields.get("invitation"))
            if (Option.isNone(invitation)) {
              return yield* refused(viewer, url, id, notAMatch("That invitation does not exist."))
            }
            const outcome = yield* refusals(invitations.revoke(principal, id, invitation.value))
            return yield* settle(viewer, url, id, outcome, "invitation-revoked", "invitations")
          }
          case "create-token": {
            const scopes = ["organizations:read", "organizations:write"].filter(
              (scope) => fields.get(`scopes.${scope}`) === scope
            )
            const days = (fields.get("expiresInDays") ?? "").trim()
            const typed = { name: fields.get("name") ?? "", scopes, days }
            const input = decodeFields(
              CreateTokenRequest,
              { name: typed.name, scopes, expiresInDays: /^\d{1,4}$/.test(days) ? Number(days) : days },
              tokenWords,
              { form: "token", ids: { scopes: "field-token-scopes-1" } }
            )
            if (Either.isLeft(input)) {
              return yield* fieldsRefused(viewer, url, id, input.left, { typed: { token: typed } })
            }
            const created = yield* refusals(tokens.create(principal, id, input.right))
            if (Either.isLeft(created)) return yield* refused(viewer, url, id, created.left)
            // Shown on this answer only: it is never stored, so no later page can show it again.
            return yield* page(viewer, url, id, {
              newToken: {
                name: created.right.name,
                token: created.right.token,
                expiresAt: created.right.expiresAt
              }
            })
          }
          case "revoke-token": {
            const token = decodeTokenId(fields.get("token"))
            if (Option.isNone(token))
              return yield* refused(viewer, url, id, notAMatch("That token does not exist."))
            const outcome = yield* refusals(tokens.revoke(principal, id, token.value))
            return yield* settle(viewer, url, id, outcome, "token-revoked", "tokens")
          }
          case "disconnect": {
            const connection = decodeGrantId(fields.get("connection"))
            if (Option.isNone(connection)) {
              return yield* refused(viewer, url, id, notAMatch("That app is not connected."))
            }
            const outcome = yield* refusals(
              connections.revokeForOrganization(principal, id, connection.value)
            )
            return yield* settle(viewer, url, id, outcome, "disconnected", "connections")
          }
          case "delete-note": {
            const note = decodeNoteId(fields.get("note"))
            if (Option.isNone(note))
              return yield* refused(viewer, url, id, notAMatch("That note does not exist."))
            const outcome = yield* refusals(notes.remove(principal, id, note.value))
            return yield* settle(viewer, url, id, outcome, "note-deleted", "notebook")
          }
          default:
            return yield* refused(viewer, url, id, {
              status: 400,
              problem: "Choose what to do on this page."
            })
        }
      })

    const withId = <A, E, R>(url: URL, then: (id: OrganizationId) => Effect.Effect<A, E, R>) =>
      Option.match(organizationIdOf(url.pathname), {
        onNone: () => Effect.fail(new OrganizationNotFound()),
        onSome: then
      })

    return {
      path: `${ORGANIZATIONS_PATH}/:organizationId`,
      maxFormBytes: MAX_FORM_BYTES,
      purpose: (pathname) =>
        Option.match(organizationIdOf(pathname), { onNone: () => pathname, onSome: purposeOf }),
      show: (viewer, url) =>
        withId(url, (id) => {
          const what = url.searchParams.get("done")
          return page(viewer, url, id, {
            done:
              what !== null && what in organizationDone
                ? organizationDone[what as OrganizationDone]
                : undefined
          })
        }),
      post: (viewer, fields, url) => withId(url, (id) => post(viewer, fields, url, id))
    }
  })
)

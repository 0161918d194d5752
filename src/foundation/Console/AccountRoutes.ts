// `/account`: the person's account page (AccountPage.ts) and its posts, each with the schema and the
// service call of its JSON operation: `profile` (profile.update), `email` (profile.changeEmail),
// `password` (security.changePassword), `end-session` (security.revokeSession) and `disconnect`
// (connections.revoke). A post that succeeds leads back to the page (303), which says so; one that
// is refused is the page again with the problem beside its field.
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { FieldError } from "../../http/pages/Forms.js"
import { Accounts } from "../Accounts/Accounts.js"
import { ChangeEmailRequest, ChangePasswordRequest, UpdateProfileRequest } from "../Accounts/Api.js"
import { seeOther } from "../Accounts/SignInRoutes.js"
import { GrantId, SessionId } from "../Domain/Ids.js"
import { Connections } from "../OAuth/Connections.js"
import { ACCOUNT_PATH } from "../Pages/ConsolePaths.js"
import { decodeFields, type FieldTargets, targetOf } from "../Pages/FormInput.js"
import type { Viewer } from "../Pages/PageViewers.js"
import { waitWords } from "../Pages/WaitWords.js"
import {
  type AccountView,
  accountDone,
  accountPage,
  emailWords,
  passwordWords,
  profileWords
} from "./AccountPage.js"
import { consoleFormToken, consoleRoute } from "./ConsoleRoute.js"
import { listPage } from "./ListPages.js"

/** The profile form is the largest: two names and a word, a token and an action. */
const MAX_FORM_BYTES = 8 * 1024

const decodeSessionId = Schema.decodeUnknownOption(SessionId)
const decodeGrantId = Schema.decodeUnknownOption(GrantId)

/** Why a post came back as the page: problems beside fields, or one for the whole form. */
interface Refusal {
  readonly status: number
  readonly errors: ReadonlyArray<FieldError>
  readonly problem?: string
}

const profileTargets: FieldTargets = { form: "profile", ids: { theme: "field-profile-theme-1" } }
const passwordTargets: FieldTargets = { form: "password" }

export const AccountRoutes = consoleRoute(
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const connections = yield* Connections
    const tokenOf = (viewer: Viewer) => consoleFormToken(viewer, ACCOUNT_PATH)

    const page = (
      viewer: Viewer,
      url: URL,
      more: Omit<AccountView, "viewer" | "formToken" | "url" | "sessions" | "connections"> = {}
    ) =>
      Effect.gen(function* () {
        // The viewer's profile may have just changed: the frame and the forms show it as it is now.
        const user = yield* accounts.profile(viewer.principal.userId)
        const current = { ...viewer, user }
        const [sessions, connected] = yield* Effect.all([
          accounts.sessions(viewer.principal),
          listPage((page) => connections.listOwn(viewer.principal, page), url.searchParams.get("connections"))
        ])
        return accountPage({
          viewer: current,
          formToken: tokenOf(viewer),
          url,
          sessions,
          connections: connected,
          ...more
        })
      })

    const done = (what: keyof typeof accountDone, anchor: string) =>
      seeOther(`${ACCOUNT_PATH}?done=${what}#${anchor}`)

    const refusedFields = (viewer: Viewer, url: URL, errors: ReadonlyArray<FieldError>, more = {}) =>
      page(viewer, url, { errors, ...more })

    return {
      path: ACCOUNT_PATH,
      maxFormBytes: MAX_FORM_BYTES,
      purpose: () => ACCOUNT_PATH,
      show: (viewer, url) => {
        const what = url.searchParams.get("done")
        return page(viewer, url, {
          done:
            what !== null && what in accountDone ? accountDone[what as keyof typeof accountDone] : undefined
        })
      },
      post: (viewer, fields, url) =>
        Effect.gen(function* () {
          switch (fields.get("action")) {
            case "profile": {
              const typed = {
                name: fields.get("name") ?? "",
                preferredName: fields.get("preferredName") ?? "",
                theme: fields.get("theme") ?? ""
              }
              const input = decodeFields(UpdateProfileRequest, typed, profileWords, profileTargets)
              if (Either.isLeft(input))
                return yield* refusedFields(viewer, url, input.left, { typed: { profile: typed } })
              yield* accounts.updateProfile(viewer.principal, input.right)
              return done("profile", "profile")
            }
            case "email": {
              const typed = (fields.get("email") ?? "").trim()
              const input = decodeFields(ChangeEmailRequest, { email: typed }, emailWords, { form: "email" })
              if (Either.isLeft(input))
                return yield* refusedFields(viewer, url, input.left, { typed: { email: typed } })
              yield* accounts.requestEmailChange(viewer.principal, input.right.email)
              return done("email", "email")
            }
            case "password": {
              const input = decodeFields(
                ChangePasswordRequest,
                {
                  currentPassword: fields.get("currentPassword") ?? "",
                  newPassword: fields.get("newPassword") ?? ""
                },
                passwordWords,
                passwordTargets
              )
              if (Either.isLeft(input)) return yield* refusedFields(viewer, url, input.left)
              const changed = yield* accounts
                .changePassword(viewer.principal, input.right.currentPassword, input.right.newPassword)
                .pipe(
                  Effect.as(
                    Option.none<{
                      readonly errors: ReadonlyArray<FieldError>
                      readonly status: number
                      readonly problem?: string
                    }>()
                  ),
                  Effect.catchTags({
                    WrongCurrentPassword: () =>
                      Effect.succeed(
                        Option.some<Refusal>({
                          status: 400,
                          errors: [
                            {
                              field: targetOf("currentPassword", passwordTargets),
                              text: "Your current password is not right"
                            }
                          ]
                        })
                      ),
                    WeakPassword: (error) =>
                      Effect.succeed(
                        Option.some<Refusal>({
                          status: 400,
                          errors: [{ field: targetOf("newPassword", passwordTargets), text: error.reason }]
                        })
                      ),
                    PasswordChecksBusy: (error) =>
                      Effect.succeed(
                        Option.some<Refusal>({
                          status: 503,
                          errors: [],
                          problem: `The service is busy checking passwords. Try again in ${waitWords(error.retryAfterSeconds)}; nothing was changed.`
                        })
                      )
                  })
                )
              if (Option.isNone(changed)) return done("password", "password")
              return yield* page(viewer, url, changed.value)
            }
            case "end-session": {
              const id = decodeSessionId(fields.get("session"))
              const ended = Option.isNone(id)
                ? Effect.succeed(false)
                : accounts.revokeSession(viewer.principal, id.value).pipe(
                    Effect.as(true),
                    Effect.catchTag("SessionNotFound", () => Effect.succeed(false))
                  )
              if (yield* ended) return done("session", "sessions")
              return yield* page(viewer, url, { status: 404, problem: "That session had already ended." })
            }
            case "disconnect": {
              const id = decodeGrantId(fields.get("connection"))
              const ended = Option.isNone(id)
                ? Effect.succeed(false)
                : connections.revokeOwn(viewer.principal, id.value).pipe(
                    Effect.as(true),
                    Effect.catchTag("ConnectionNotFound", () => Effect.succeed(false))
                  )
              if (yield* ended) return done("connection", "connections")
              return yield* page(viewer, url, { status: 404, problem: "That app was already disconnected." })
            }
            default:
              return yield* page(viewer, url, { status: 400, problem: "Choose what to do on this page." })
          }
        })
    }
  })
)

// Handlers of the `auth`, `security` and `profile` groups.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ClientAddress } from "../../http/ClientAddress.js"
import { Success } from "../Domain/Common.js"
import { FoundationApi } from "../FoundationApi.js"
import { clientInfo, rejectForeignOrigin } from "../Security/ClientInfo.js"
import { CurrentSession } from "../Security/Principal.js"
import { clearedSessionCookie, sessionCookie } from "../Security/SessionCookie.js"
import { Accounts, type ClientInfo, type SignedIn } from "./Accounts.js"
import { Sessions } from "./Sessions.js"

const setCookie = (value: string) =>
  HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "set-cookie", value))
  )

export const AuthHttp = HttpApiBuilder.group(FoundationApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const sessions = yield* Sessions
    const addresses = yield* ClientAddress

    /** Signs in by `signIn`, sets the session cookie and answers `{ user }`. */
    const startSession = <E>(signIn: (client: ClientInfo) => Effect.Effect<SignedIn, E>) =>
      Effect.gen(function* () {
        yield* rejectForeignOrigin
        const signedIn = yield* signIn(yield* clientInfo(addresses))
        yield* setCookie(sessionCookie(signedIn.sessionToken, sessions.ttl))
        return { user: signedIn.user }
      })

    return handlers
      .handle("signUp", ({ payload }) => startSession((client) => accounts.signUp(payload, client)))
      .handle("signIn", ({ payload }) => startSession((client) => accounts.signIn(payload, client)))
      .handle("signOut", () =>
        Effect.gen(function* () {
          yield* accounts.signOut(yield* CurrentSession)
          yield* setCookie(clearedSessionCookie)
          return Success.value
        })
      )
      .handle("verifyEmail", ({ payload }) =>
        Effect.gen(function* () {
          yield* rejectForeignOrigin
          yield* accounts.verifyEmail(payload.token)
          return Success.value
        })
      )
  })
)

export const SecurityHttp = HttpApiBuilder.group(FoundationApi, "security", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    return handlers
      .handle("sessions", () =>
        Effect.map(Effect.flatMap(CurrentSession, accounts.sessions), (items) => ({
          items,
          nextCursor: null
        }))
      )
      .handle("revokeSession", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) => accounts.revokeSession(session, path.sessionId)).pipe(
          Effect.as(Success.value)
        )
      )
      .handle("changePassword", ({ payload }) =>
        Effect.gen(function* () {
          yield* accounts.changePassword(yield* CurrentSession, payload.currentPassword, payload.newPassword)
          return Success.value
        })
      )
  })
)

export const ProfileHttp = HttpApiBuilder.group(FoundationApi, "profile", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    return handlers
      .handle("get", () => Effect.flatMap(CurrentSession, (session) => accounts.profile(session.userId)))
      .handle("update", ({ payload }) =>
        Effect.flatMap(CurrentSession, (session) => accounts.updateProfile(session, payload))
      )
      .handle("changeEmail", ({ payload }) =>
        Effect.flatMap(CurrentSession, (session) => accounts.requestEmailChange(session, payload.email)).pipe(
          Effect.as(Success.value)
        )
      )
  })
)

export const AccountsHttp = Layer.mergeAll(AuthHttp, SecurityHttp, ProfileHttp)

// The rules of accounts: sign-up, sign-in, sign-out, email verification and change, password change
// and the profile (extensions §1, base contract profile.*). Messages go to the outbox in the same
// transaction as their cause.
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Transactions } from "../Database/DatabaseEdge.js"
import {
  type DatabaseUnavailable,
  EmailTaken,
  InvalidCredentials,
  InvalidVerificationLink,
  RateLimited,
  SessionNotFound,
  Unauthenticated,
  WeakPassword,
  WrongCurrentPassword
} from "../Domain/Errors.js"
import { type SessionId, UserId } from "../Domain/Ids.js"
import type { Theme, UserProfile } from "../Domain/User.js"
import { FoundationConfig } from "../FoundationConfig.js"
import { Outbox } from "../Outbox/Outbox.js"
import { Passwords, passwordWeakness } from "../Security/Passwords.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { RateLimiter } from "../Security/RateLimiter.js"
import { hashSecret, newId, randomSecret } from "../Security/Secrets.js"
import { traced } from "../Traced.js"
import { Sessions } from "./Sessions.js"
import { UserRepo, type VerificationPurpose } from "./UserRepo.js"

/** Where a sign-in or sign-up comes from: used for rate limits and the session list. */
export interface ClientInfo {
  readonly address: string
  readonly userAgent: string | null
}

/** What a verification link proved: the address, and whether it was a sign-up's or an email change's. */
export interface VerifiedEmail {
  readonly purpose: VerificationPurpose
  readonly email: string
}

export interface SignedIn {
  readonly user: UserProfile
  /** The session token for the cookie: never stored, never logged. */
  readonly sessionToken: string
}

/** New verification links a person may ask for in an hour. */
export const NEW_LINKS_PER_HOUR = 3

export class Accounts extends Effect.Service<Accounts>()("Accounts", {
  effect: Effect.gen(function* () {
    const transactions = yield* Transactions
    const users = yield* UserRepo
    const sessions = yield* Sessions
    const passwords = yield* Passwords
    const outbox = yield* Outbox
    const limiter = yield* RateLimiter
    const config = yield* FoundationConfig
    const emailTokenSeconds = Math.floor(Duration.toSeconds(config.emailTokenTtl))

    /**
     * At most N attempts a minute per client address and email (extensions §7), and at most M per
     * address whatever the emails, so one address can neither try many accounts nor make them
     * (issue 14). Both counters are kept in the database, so every instance counts together.
     */
    const limitAttempts = (
      client: ClientInfo,
      email: string
    ): Effect.Effect<void, RateLimited | DatabaseUnavailable> =>
      Effect.zipRight(
        limiter.consume(`auth-address:${hashSecret(client.address)}`, config.authAddressRateLimit).pipe(
          Effect.catchTag("RateLimited", (limited) =>
            Effect.fail(
              new RateLimited({
                message: "Too many sign-in and sign-up attempts from your address; wait before trying again.",
                retryAfterSeconds: limited.retryAfterSeconds
              })
            )
          )
        ),
        limiter.consume(
          `auth:${hashSecret(`${client.address}\n${email.toLowerCase()}`)}`,
          config.authRateLimit
        )
      )

    /** Refuses a new password that is easy to guess, naming the field it came in. */
    const refuseWeakPassword = (field: string, password: string, email: string) => {
      const reason = passwordWeakness(password, email)
      return reason === undefined ? Effect.void : Effect.fail(new WeakPassword({ field, reason }))
    }

    /**
     * Writes a verification token and its message; call inside the transaction of the cause. A page
     * flow's `returnTo` (a path of this service, already checked) rides in the link, so that the page
     * the link opens can send the person on to where they were going (extensions §9).
     */
    const sendVerification = (
      userId: UserId,
      email: string,
      purpose: VerificationPurpose,
      returnTo?: string
    ) =>
      Effect.gen(function* () {
        const token = randomSecret(32)
        yield* users.insertVerification({
          id: newId("evf"),
          userId,
          email,
          purpose,
          tokenHash: hashSecret(token),
          ttlSeconds: emailTokenSeconds
        })
        const link = outbox.link("/verify-email", token)
        yield* outbox.enqueue({
          kind: purpose,
          recipient: email,
          link: returnTo === undefined ? link : `${link}&return_to=${encodeURIComponent(returnTo)}`
        })
      })

    const profile = traced("Accounts.profile", (userId: UserId) =>
      Effect.flatMap(users.findById(userId), (user) =>
        Option.match(user, {
          // A live session whose user vanished: the account was deleted, so the caller is no one.
          onNone: () => Effect.fail(new Unauthenticated()),
          onSome: Effect.succeed
        })
      )
    )

    /** The profile of a user this request just authenticated or created: absence is a bug. */
    const existingProfile = (userId: UserId) =>
      Effect.flatMap(users.findById(userId), (user) =>
        Option.match(user, {
          onNone: () => Effect.dieMessage(`User ${userId} vanished`),
          onSome: Effect.succeed
        })
      )

    const signUp = traced(
      "Accounts.signUp",
      (input: { email: string; password: string; name: string }, client: ClientInfo, returnTo?: string) =>
        Effect.gen(function* () {
          yield* limitAttempts(client, input.email)
          yield* refuseWeakPassword("password", input.password, input.email)
          if (yield* users.emailInUse(input.email)) return yield* new EmailTaken()
          const passwordHash = yield* passwords.hash(input.password)
          const userId = UserId.make(newId("usr"))
          const session = yield* transactions.run(
            Effect.gen(function* () {
              yield* users.insert({ id: userId, email: input.email, name: input.name })
              yield* users.setPassword(userId, passwordHash)
              yield* sendVerification(userId, input.email, "verify-email", returnTo)
              return yield* sessions.create(userId, client.userAgent)
            })
          )
          yield* outbox.wake
          return { user: yield* existingProfile(userId), sessionToken: session.token } satisfies SignedIn
        })
    )

    const signIn = traced(
      "Accounts.signIn",
      (input: { email: string; password: string }, client: ClientInfo) =>
        Effect.gen(function* () {
          yield* limitAttempts(client, input.email)
          const found = yield* users.findCredentialsByEmail(input.email)
          // The same work and the same answer whether or not the email exists.
          const valid = yield* passwords.verify(
            input.password,
            Option.match(found, { onNone: () => passwords.decoyHash, onSome: (user) => user.passwordHash })
          )
          if (Option.isNone(found) || !valid) return yield* new InvalidCredentials()
          const { id, passwordHash } = found.value
          if (passwords.needsUpgrade(passwordHash)) {
            // The password is at hand only now: hash it again at the current cost. Should that fail
            // (every hashing turn taken, the database busy), the sign-in stands and the next one
            // tries again.
            yield* passwords.hash(input.password).pipe(
              Effect.flatMap((upgraded) => users.upgradePasswordHash(id, passwordHash, upgraded)),
              Effect.ignore
            )
          }
          const session = yield* sessions.create(id, client.userAgent)
          return {
            user: yield* existingProfile(id),
            sessionToken: session.token
          } satisfies SignedIn
        })
    )

    const signOut = traced("Accounts.signOut", (principal: SessionPrincipal) =>
      sessions.revoke(principal.userId, principal.sessionId)
    )

    /** Uses the link's token; says which address it verified and whether it became the account's. */
    const verifyEmail = traced("Accounts.verifyEmail", (token: string) =>
      transactions.run(
        Effect.gen(function* () {
          const used = yield* users.useVerification(hashSecret(token))
          if (Option.isNone(used)) return yield* new InvalidVerificationLink()
          const { userId, email, purpose } = used.value
          if (purpose === "verify-email") {
            // A token for an address the user has since replaced no longer proves anything.
            if (!(yield* users.markEmailVerified(userId, email))) return yield* new InvalidVerificationLink()
            return { purpose, email } satisfies VerifiedEmail
          }
          yield* users
            .replaceEmail(userId, email)
            .pipe(
              Effect.catchTag("EmailTaken", () =>
                Effect.fail(new EmailTaken({ message: "This email address is already in use." }))
              )
            )
          return { purpose, email } satisfies VerifiedEmail
        })
      )
    )

    /**
     * Sends a verification to the new address; the email changes only when it is verified. The
     * answer is the same whether or not the address is taken, so it reveals no accounts: a taken
     * address simply gets no message.
     */
    const requestEmailChange = traced(
      "Accounts.requestEmailChange",
      (principal: SessionPrincipal, email: string) =>
        Effect.gen(function* () {
          const user = yield* profile(principal.userId)
          if (user.email.toLowerCase() === email.toLowerCase()) return
          if (yield* users.emailInUse(email)) return
          yield* transactions.run(sendVerification(principal.userId, email, "change-email"))
          yield* outbox.wake
        })
    )

    /**
     * A new link to verify the account's own address, for a person whose link expired or went
     * astray (the page `/verify-email/new`): at most `NEW_LINKS_PER_HOUR` an hour per account, so the
     * service cannot be made to flood an inbox. Earlier links stay valid until they expire. Says which
     * address the link went to, or that the address is verified already (nothing is sent).
     */
    const sendNewVerification = traced(
      "Accounts.sendNewVerification",
      (principal: SessionPrincipal, returnTo?: string) =>
        Effect.gen(function* () {
          const user = yield* profile(principal.userId)
          if (user.emailVerified) return { sent: false, email: user.email } as const
          yield* limiter.consume(`verification-link:${principal.userId}`, NEW_LINKS_PER_HOUR, 3600)
          yield* transactions.run(sendVerification(principal.userId, user.email, "verify-email", returnTo))
          yield* outbox.wake
          return { sent: true, email: user.email } as const
        })
    )

    /** The person's live sessions, newest first, the one making the request marked `current`. */
    const sessionList = traced("Accounts.sessions", (principal: SessionPrincipal) =>
      Effect.map(sessions.list(principal.userId), (listed) =>
        listed.map((item) => ({ ...item, current: item.id === principal.sessionId }))
      )
    )

    /** Ends one of the person's live sessions (404 for any other). */
    const revokeSession = traced(
      "Accounts.revokeSession",
      (principal: SessionPrincipal, sessionId: SessionId) =>
        Effect.flatMap(sessions.revoke(principal.userId, sessionId), (revoked) =>
          revoked ? Effect.void : Effect.fail(new SessionNotFound())
        )
    )

    /** Changes the password and revokes every other session of the user. */
    const changePassword = traced(
      "Accounts.changePassword",
      (principal: SessionPrincipal, currentPassword: string, newPassword: string) =>
        Effect.gen(function* () {
          const user = yield* profile(principal.userId)
          yield* refuseWeakPassword("newPassword", newPassword, user.email)
          const stored = yield* users.passwordHash(principal.userId)
          const valid = yield* passwords.verify(
            currentPassword,
            Option.getOrElse(stored, () => passwords.decoyHash)
          )
          if (!valid) return yield* new WrongCurrentPassword()
          const passwordHash = yield* passwords.hash(newPassword)
          yield* transactions.run(
            Effect.zipRight(
              users.setPassword(principal.userId, passwordHash),
              sessions.revokeOthers(principal.userId, principal.sessionId)
            )
          )
        })
    )

    const updateProfile = traced(
      "Accounts.updateProfile",
      (
        principal: SessionPrincipal,
        changes: { readonly name: string; readonly preferredName: string; readonly theme: Theme }
      ) =>
        Effect.flatMap(users.updateProfile(principal.userId, changes), (user) =>
          Option.match(user, { onNone: () => Effect.fail(new Unauthenticated()), onSome: Effect.succeed })
        )
    )

    return {
      signUp,
      signIn,
      signOut,
      verifyEmail,
      sendNewVerification,
      requestEmailChange,
      changePassword,
      profile,
      updateProfile,
      sessions: sessionList,
      revokeSession
    }
  })
}) {}

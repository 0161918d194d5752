// SQL for users, their password credentials and their email verification tokens. A taken email
// comes back as `EmailTaken`; everything else through the database edge.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { onUniqueViolation, repositoryCall } from "../Database/DatabaseEdge.js"
import { EmailTaken } from "../Domain/Errors.js"
import { UserId } from "../Domain/Ids.js"
import { type Theme, UserProfile } from "../Domain/User.js"

export const VerificationPurpose = Schema.Literal("verify-email", "change-email")
export type VerificationPurpose = typeof VerificationPurpose.Type

/** A verification token just used: whose, for which address, and why. */
export const UsedVerification = Schema.Struct({
  userId: UserId,
  email: Schema.String,
  purpose: VerificationPurpose
})
export type UsedVerification = typeof UsedVerification.Type

export class UserRepo extends Effect.Service<UserRepo>()("UserRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const profile = sql.literal(
      "id, name, email, email_verified, preferred_name, theme, onboarding_completed"
    )
    const emailTaken = () => new EmailTaken()

    return {
      findById: repositoryCall(
        "UserRepo.findById",
        SqlSchema.findOne({
          Request: UserId,
          Result: UserProfile,
          execute: (id) => sql`SELECT ${profile} FROM users WHERE id = ${id}`
        })
      ),

      /** The user id and password hash for a sign-in attempt. */
      findCredentialsByEmail: repositoryCall(
        "UserRepo.findCredentialsByEmail",
        SqlSchema.findOne({
          Request: Schema.String,
          Result: Schema.Struct({ id: UserId, passwordHash: Schema.String }),
          execute: (email) => sql`
            SELECT u.id, p.password_hash FROM users u JOIN password_credentials p ON p.user_id = u.id
            WHERE lower(u.email) = lower(${email})`
        })
      ),

      emailInUse: repositoryCall("UserRepo.emailInUse", (email: string) =>
        Effect.map(sql`SELECT 1 FROM users WHERE lower(email) = lower(${email})`, (rows) => rows.length > 0)
      ),

      /** Fails with `EmailTaken` when the email is taken. */
      insert: repositoryCall(
        "UserRepo.insert",
        (user: { readonly id: UserId; readonly email: string; readonly name: string }) =>
          sql`INSERT INTO users (id, email, name) VALUES (${user.id}, ${user.email}, ${user.name})`.pipe(
            Effect.asVoid,
            onUniqueViolation("users_email_key", emailTaken)
          )
      ),

      setPassword: repositoryCall("UserRepo.setPassword", (userId: UserId, passwordHash: string) =>
        sql`
          INSERT INTO password_credentials (user_id, password_hash) VALUES (${userId}, ${passwordHash})
          ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()`.pipe(
          Effect.asVoid
        )
      ),

      /**
       * Replaces a password hash with one of the same password at a higher cost, unless the password
       * changed since `current` was read (then the newer password stays).
       */
      upgradePasswordHash: repositoryCall(
        "UserRepo.upgradePasswordHash",
        (userId: UserId, current: string, upgraded: string) =>
          sql`
            UPDATE password_credentials SET password_hash = ${upgraded}
            WHERE user_id = ${userId} AND password_hash = ${current}`.pipe(Effect.asVoid)
      ),

      passwordHash: repositoryCall("UserRepo.passwordHash", (userId: UserId) =>
        Effect.map(
          SqlSchema.findOne({
            Request: UserId,
            Result: Schema.Struct({ passwordHash: Schema.String }),
            execute: (id) => sql`SELECT password_hash FROM password_credentials WHERE user_id = ${id}`
          })(userId),
          Option.map((row) => row.passwordHash)
        )
      ),

      updateProfile: repositoryCall(
        "UserRepo.updateProfile",
        (
          userId: UserId,
          changes: { readonly name: string; readonly preferredName: string; readonly theme: Theme }
        ) =>
          SqlSchema.findOne({
            Request: Schema.Void,
            Result: UserProfile,
            execute: () => sql`
              UPDATE users SET name = ${changes.name}, preferred_name = ${changes.preferredName},
                theme = ${changes.theme}, updated_at = now()
              WHERE id = ${userId} RETURNING ${profile}`
          })(undefined)
      ),

      /** Marks the email verified if it is still the user's email; false otherwise. */
      markEmailVerified: repositoryCall("UserRepo.markEmailVerified", (userId: UserId, email: string) =>
        Effect.map(
          sql`
            UPDATE users SET email_verified = true, updated_at = now()
            WHERE id = ${userId} AND lower(email) = lower(${email}) RETURNING id`,
          (rows) => rows.length > 0
        )
      ),

      /** Replaces the email by a verified one; fails with `EmailTaken` when it was taken meanwhile. */
      replaceEmail: repositoryCall("UserRepo.replaceEmail", (userId: UserId, email: string) =>
        sql`UPDATE users SET email = ${email}, email_verified = true, updated_at = now() WHERE id = ${userId}`.pipe(
          Effect.asVoid,
          onUniqueViolation("users_email_key", emailTaken)
        )
      ),

      insertVerification: repositoryCall(
        "UserRepo.insertVerification",
        (verification: {
          readonly id: string
          readonly userId: UserId
          readonly email: string
          readonly purpose: VerificationPurpose
          readonly tokenHash: string
          readonly ttlSeconds: number
        }) =>
          sql`
            INSERT INTO email_verifications (id, user_id, email, purpose, token_hash, expires_at)
            VALUES (${verification.id}, ${verification.userId}, ${verification.email}, ${verification.purpose},
              ${verification.tokenHash}, now() + make_interval(secs => ${verification.ttlSeconds}::int))`.pipe(
            Effect.asVoid
          )
      ),

      /** Uses a verification token once: the row is marked used in the same statement that finds it. */
      useVerification: repositoryCall(
        "UserRepo.useVerification",
        SqlSchema.findOne({
          Request: Schema.String,
          Result: UsedVerification,
          execute: (tokenHash) => sql`
            UPDATE email_verifications SET used_at = now()
            WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now()
            RETURNING user_id, email, purpose`
        })
      )
    }
  })
}) {}

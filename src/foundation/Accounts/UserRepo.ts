// SQL for users, their password credentials and their email verification tokens.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { orDieOnParse } from "../Database/Rows.js"
import { type Theme, UserProfile } from "../Domain/User.js"

export type VerificationPurpose = "verify-email" | "change-email"

export interface UsedVerification {
  readonly userId: string
  readonly email: string
  readonly purpose: VerificationPurpose
}

export class UserRepo extends Effect.Service<UserRepo>()("UserRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const profile = sql.literal(
      "id, name, email, email_verified, preferred_name, theme, onboarding_completed"
    )

    const findProfile = SqlSchema.findOne({
      Request: Schema.String,
      Result: UserProfile,
      execute: (id) => sql`SELECT ${profile} FROM users WHERE id = ${id}`
    })

    const findCredentialsByEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ id: Schema.String, passwordHash: Schema.String }),
      execute: (email) => sql`
        SELECT u.id, p.password_hash FROM users u JOIN password_credentials p ON p.user_id = u.id
        WHERE lower(u.email) = lower(${email})`
    })

    return {
      findById: (id: string) => orDieOnParse(findProfile(id)),

      /** The user id and password hash for a sign-in attempt. */
      findCredentialsByEmail: (email: string) => orDieOnParse(findCredentialsByEmail(email)),

      emailInUse: (email: string) =>
        Effect.map(sql`SELECT 1 FROM users WHERE lower(email) = lower(${email})`, (rows) => rows.length > 0),

      /** Fails with the unique violation `users_email_key` when the email is taken. */
      insert: (user: { readonly id: string; readonly email: string; readonly name: string }) =>
        sql`INSERT INTO users (id, email, name) VALUES (${user.id}, ${user.email}, ${user.name})`.pipe(
          Effect.asVoid
        ),

      setPassword: (userId: string, passwordHash: string) =>
        sql`
          INSERT INTO password_credentials (user_id, password_hash) VALUES (${userId}, ${passwordHash})
          ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()`.pipe(
          Effect.asVoid
        ),

      passwordHash: (userId: string) =>
        Effect.map(
          sql<{
            passwordHash: string
          }>`SELECT password_hash FROM password_credentials WHERE user_id = ${userId}`,
          (rows) => Option.fromNullable(rows[0]?.passwordHash)
        ),

      updateProfile: (
        userId: string,
        changes: { readonly name: string; readonly preferredName: string; readonly theme: Theme }
      ) =>
        orDieOnParse(
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
      markEmailVerified: (userId: string, email: string) =>
        Effect.map(
          sql`
            UPDATE users SET email_verified = true, updated_at = now()
            WHERE id = ${userId} AND lower(email) = lower(${email}) RETURNING id`,
          (rows) => rows.length > 0
        ),

      /** Replaces the email by a verified one; fails with `users_email_key` when it was taken meanwhile. */
      replaceEmail: (userId: string, email: string) =>
        sql`UPDATE users SET email = ${email}, email_verified = true, updated_at = now() WHERE id = ${userId}`.pipe(
          Effect.asVoid
        ),

      insertVerification: (verification: {
        readonly id: string
        readonly userId: string
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
        ),

      /** Uses a verification token once: the row is marked used in the same statement that finds it. */
      useVerification: (tokenHash: string) =>
        Effect.map(
          sql<UsedVerification>`
            UPDATE email_verifications SET used_at = now()
            WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now()
            RETURNING user_id, email, purpose`,
          (rows) => Option.fromNullable(rows[0])
        )
    }
  })
}) {}

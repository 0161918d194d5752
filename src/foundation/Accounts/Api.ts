// The endpoints of accounts (extensions §1) and of the profile (base contract §4): groups `auth`,
// `security` and `profile`, whose names prefix the operationIds.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { errorDoc } from "../../http/ApiError.js"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { Email, Success, Timestamp } from "../Domain/Common.js"
import {
  EmailTaken,
  ForeignOrigin,
  InvalidCredentials,
  InvalidVerificationLink,
  PasswordChecksBusy,
  RateLimited,
  SessionNotFound,
  WeakPassword,
  WrongCurrentPassword
} from "../Domain/Errors.js"
import { SessionId } from "../Domain/Ids.js"
import { Text } from "../Domain/Text.js"
import { Password, PersonName, preferredNameBounds, Theme, UserProfile } from "../Domain/User.js"
import { SessionAuth } from "../Security/Authentication.js"

export const SignUpRequest = Schema.Struct({ email: Email, password: Password, name: PersonName })

/** A password as it is: rules of new passwords say nothing about old ones, so only the shape is checked. */
const CurrentPassword = Text.pipe(Schema.minLength(1), Schema.maxLength(1024)).pipe(
  documented("Current password", `The account's password as it is now: ${characters(1, 1024)}.`)
)

export const SignInRequest = Schema.Struct({ email: Email, password: CurrentPassword })

export const SignedInResponse = Schema.Struct({ user: UserProfile })

export const VerifyEmailRequest = Schema.Struct({
  token: Text.pipe(Schema.minLength(1), Schema.maxLength(200)).pipe(
    documented("Verification token", `The token of the link sent by email: ${characters(1, 200)}.`)
  )
})

export const SessionItem = Schema.Struct({
  id: SessionId,
  createdAt: Timestamp,
  lastSeenAt: Timestamp,
  expiresAt: Timestamp,
  userAgent: Schema.NullOr(Schema.String),
  current: Schema.Boolean
})

export const SessionList = Schema.Struct({ items: Schema.Array(SessionItem), nextCursor: Schema.Null })

export const ChangePasswordRequest = Schema.Struct({
  currentPassword: CurrentPassword,
  newPassword: Password
})

export const UpdateProfileRequest = Schema.Struct({
  name: PersonName,
  preferredName: Text.pipe(
    Schema.minLength(preferredNameBounds.minimum),
    Schema.maxLength(preferredNameBounds.maximum)
  ).pipe(
    documented(
      "Preferred name",
      `What the service calls the person: ${characters(preferredNameBounds.minimum, preferredNameBounds.maximum)}.`
    )
  ),
  theme: Theme
})

export const ChangeEmailRequest = Schema.Struct({ email: Email })

export const AuthApi = HttpApiGroup.make("auth")
  .annotate(OpenApi.Description, "Accounts: sign-up, sign-in, sign-out and email verification")
  .add(
    HttpApiEndpoint.post("signUp", "/auth/sign-up")
      .annotate(OpenApi.Summary, "Create an account and start a session")
      .setPayload(SignUpRequest)
      .addSuccess(SignedInResponse)
      .addError(errorDoc(WeakPassword))
      .addError(errorDoc(EmailTaken))
      .addError(errorDoc(ForeignOrigin))
      .addError(errorDoc(RateLimited))
      .addError(errorDoc(PasswordChecksBusy))
  )
  .add(
    HttpApiEndpoint.post("signIn", "/auth/sign-in")
      .annotate(OpenApi.Summary, "Start a session with email and password")
      .setPayload(SignInRequest)
      .addSuccess(SignedInResponse)
      .addError(errorDoc(InvalidCredentials))
      .addError(errorDoc(ForeignOrigin))
      .addError(errorDoc(RateLimited))
      .addError(errorDoc(PasswordChecksBusy))
  )
  .add(
    HttpApiEndpoint.post("signOut", "/auth/sign-out")
      .annotate(OpenApi.Summary, "End the current session and clear its cookie")
      .addSuccess(Success)
      .middleware(SessionAuth)
  )
  .add(
    HttpApiEndpoint.post("verifyEmail", "/auth/verify-email")
      .annotate(OpenApi.Summary, "Confirm an email address with the token of its link")
      .setPayload(VerifyEmailRequest)
      .addSuccess(Success)
      .addError(errorDoc(InvalidVerificationLink))
      .addError(errorDoc(EmailTaken))
      .addError(errorDoc(ForeignOrigin))
  )

export const SecurityApi = HttpApiGroup.make("security")
  .annotate(OpenApi.Description, "The account's sessions and password")
  .add(
    HttpApiEndpoint.get("sessions", "/security/sessions")
      .annotate(OpenApi.Summary, "The account's live sessions")
      .addSuccess(SessionList)
  )
  .add(
    HttpApiEndpoint.del("revokeSession", "/security/sessions/:sessionId")
      .annotate(OpenApi.Summary, "Revoke one of the account's sessions")
      .setPath(Schema.Struct({ sessionId: SessionId }))
      .addSuccess(Success)
      .addError(errorDoc(SessionNotFound))
  )
  .add(
    HttpApiEndpoint.post("changePassword", "/security/password")
      .annotate(OpenApi.Summary, "Change the password; every other session is revoked")
      .setPayload(ChangePasswordRequest)
      .addSuccess(Success)
      .addError(errorDoc(WrongCurrentPassword))
      .addError(errorDoc(WeakPassword))
      .addError(errorDoc(PasswordChecksBusy))
  )
  .middleware(SessionAuth)

export const ProfileApi = HttpApiGroup.make("profile")
  .annotate(OpenApi.Description, "The signed-in user's profile")
  .add(
    HttpApiEndpoint.get("get", "/profile")
      .annotate(OpenApi.Summary, "The signed-in user's profile")
      .addSuccess(UserProfile)
  )
  .add(
    HttpApiEndpoint.patch("update", "/profile")
      .annotate(OpenApi.Summary, "Update name, preferred name and theme")
      .setPayload(UpdateProfileRequest)
      .addSuccess(UserProfile)
  )
  .add(
    HttpApiEndpoint.post("changeEmail", "/profile/email")
      .annotate(OpenApi.Summary, "Request a verified change of email address")
      .setPayload(ChangeEmailRequest)
      .addSuccess(Success)
  )
  .middleware(SessionAuth)

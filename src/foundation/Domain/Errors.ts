// Every way the foundation's services and repositories can fail that a caller can act on, named for
// the domain so that a caller can `catchTag` one of them (a stale version is not a taken slug).
// Each carries its HTTP status as an annotation; `src/http/ApiError.ts` renders any of them as the
// envelope with the code of that status, its `message` and its `data`. The messages are the
// contract's wire text: change one and clients see it.
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { GrantScope } from "./Common.js"
import { InvitationStatus } from "./Invitation.js"

const message = (text: string) => Schema.optionalWith(Schema.String, { default: () => text })

// The database

/** The database cannot answer now (down, restarting, overloaded, too slow): try again later. */
export class DatabaseUnavailable extends Schema.TaggedError<DatabaseUnavailable>()(
  "DatabaseUnavailable",
  {
    message: message("The service is temporarily unavailable."),
    retryAfterSeconds: Schema.optionalWith(Schema.Int, { default: () => 5 })
  },
  HttpApiSchema.annotations({ status: 503 })
) {}

/** A page cursor this service did not hand out (or for another list). */
export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()(
  "InvalidCursor",
  { message: message("cursor: not a cursor returned by this list.") },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** Too many requests for one credential, or sign-in attempts for one address and email. */
export class RateLimited extends Schema.TaggedError<RateLimited>()(
  "RateLimited",
  { message: message("Wait before trying again."), retryAfterSeconds: Schema.Int },
  HttpApiSchema.annotations({ status: 429 })
) {}

// Who is calling

/**
 * The challenge of a protected resource's 401 or 403 (`WWW-Authenticate`, extensions §8): where its
 * RFC 9728 metadata is, and what was wrong with the token sent.
 */
const challenge = Schema.optional(Schema.String)

/** No credential, or one that names no live session or token (the message says which). */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()(
  "Unauthenticated",
  { message: message("Sign in to continue."), wwwAuthenticate: challenge },
  HttpApiSchema.annotations({ status: 401 })
) {}

/** A browser request from another site's page (the message says which rule it broke). */
export class ForeignOrigin extends Schema.TaggedError<ForeignOrigin>()(
  "ForeignOrigin",
  { message: message("This request must come from the service's origin.") },
  HttpApiSchema.annotations({ status: 403 })
) {}

/** A bearer token used on an operation only a signed-in person may call. */
export class SessionRequired extends Schema.TaggedError<SessionRequired>()(
  "SessionRequired",
  { message: message("This operation needs a signed-in session; tokens cannot use it.") },
  HttpApiSchema.annotations({ status: 403 })
) {}

/** A token used on an organization other than the one it is bound to. */
export class TokenForAnotherOrganization extends Schema.TaggedError<TokenForAnotherOrganization>()(
  "TokenForAnotherOrganization",
  { message: message("This token is bound to another organization.") },
  HttpApiSchema.annotations({ status: 403 })
) {}

/** A token without the scope the operation needs. */
export class TokenScopeMissing extends Schema.TaggedError<TokenScopeMissing>()(
  "TokenScopeMissing",
  { scope: GrantScope, wwwAuthenticate: challenge },
  HttpApiSchema.annotations({ status: 403 })
) {
  override get message() {
    return `This token lacks the ${this.scope} scope.`
  }
}

/**
 * A bearer credential whose person (the API token's creator, the OAuth grant's approver) is no
 * longer a member of its organization: it acts for them, so it can do nothing there (extensions §5, §8).
 */
export class DelegatorNotMember extends Schema.TaggedError<DelegatorNotMember>()(
  "DelegatorNotMember",
  { message: message("The person this credential acts for is no longer a member of this organization.") },
  HttpApiSchema.annotations({ status: 403 })
) {}

/** The caller's role in the organization does not allow this (the message says what would). */
export class RoleNotPermitted extends Schema.TaggedError<RoleNotPermitted>()(
  "RoleNotPermitted",
  { message: message("You do not have access to this action.") },
  HttpApiSchema.annotations({ status: 403 })
) {}

// Accounts

export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()(
  "InvalidCredentials",
  { message: message("The email or password is incorrect.") },
  HttpApiSchema.annotations({ status: 401 })
) {}

/** The address belongs to another account (at sign-up, or when a change of address is verified). */
export class EmailTaken extends Schema.TaggedError<EmailTaken>()(
  "EmailTaken",
  { message: message("An account with this email already exists.") },
  HttpApiSchema.annotations({ status: 409 })
) {}

export class InvalidVerificationLink extends Schema.TaggedError<InvalidVerificationLink>()(
  "InvalidVerificationLink",
  { message: message("This verification link is invalid, expired or already used.") },
  HttpApiSchema.annotations({ status: 400 })
) {}

/**
 * A new password that is easy to guess (NIST SP 800-63B §3.1.1.2): 400, naming the field and saying
 * why, in the same shape as a field that failed its schema.
 */
export class WeakPassword extends Schema.TaggedError<WeakPassword>()(
  "WeakPassword",
  { field: Schema.String, reason: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {
  override get message() {
    return `${this.field}: ${this.reason}`
  }
  get data() {
    return { issues: [{ path: [this.field], message: this.reason }] }
  }
}

/**
 * More passwords are waiting to be checked than the service lets queue (password hashing is kept to
 * a few at a time so that it cannot starve every other request): 503, try again shortly.
 */
export class PasswordChecksBusy extends Schema.TaggedError<PasswordChecksBusy>()(
  "PasswordChecksBusy",
  {
    message: message("Too many passwords are being checked right now; try again in a moment."),
    retryAfterSeconds: Schema.optionalWith(Schema.Int, { default: () => 1 })
  },
  HttpApiSchema.annotations({ status: 503 })
) {}

export class WrongCurrentPassword extends Schema.TaggedError<WrongCurrentPassword>()(
  "WrongCurrentPassword",
  { message: message("The current password is incorrect.") },
  HttpApiSchema.annotations({ status: 400 })
) {}

export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()(
  "SessionNotFound",
  { message: message("The session was not found.") },
  HttpApiSchema.annotations({ status: 404 })
) {}

// Organizations and memberships

/** No such organization, or one the caller is not a member of: the two look the same. */
export class OrganizationNotFound extends Schema.TaggedError<OrganizationNotFound>()(
  "OrganizationNotFound",
  { message: message("The organization was not found.") },
  HttpApiSchema.annotations({ status: 404 })
) {}

export class SlugTaken extends Schema.TaggedError<SlugTaken>()(
  "SlugTaken",
  { message: message("This slug is already in use.") },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The version sent with an update is not the current one (base contract §4: 409). */
export class StaleVersion extends Schema.TaggedError<StaleVersion>()(
  "StaleVersion",
  {
    message: message(
      "This organization changed since the version you sent. Read it again and retry with its version."
    )
  },
  HttpApiSchema.annotations({ status: 409 })
) {}

export class MemberNotFound extends Schema.TaggedError<MemberNotFound>()(
  "MemberNotFound",
  { message: message("The member was not found in this organization.") },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Demoting or removing the last owner (extensions §3): 400 with a reason clients can test. */
export class LastOwner extends Schema.TaggedError<LastOwner>()(
  "LastOwner",
  {
    message: message("The last owner can be neither demoted nor removed. Make another member owner first.")
  },
  HttpApiSchema.annotations({ status: 400 })
) {
  get data() {
    return { reason: "LAST_OWNER" } as const
  }
}

/** The caller is already a member of the organization they are joining. */
export class AlreadyMember extends Schema.TaggedError<AlreadyMember>()(
  "AlreadyMember",
  { message: message("You are already a member of this organization.") },
  HttpApiSchema.annotations({ status: 409 })
) {}

// Invitations

export class InvitationNotFound extends Schema.TaggedError<InvitationNotFound>()(
  "InvitationNotFound",
  { message: message("The invitation was not found.") },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Inviting someone who is already a member. */
export class InviteeAlreadyMember extends Schema.TaggedError<InviteeAlreadyMember>()(
  "InviteeAlreadyMember",
  { message: message("This person is already a member of this organization.") },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** At most one pending invitation per email and organization (extensions §4). */
export class InvitationAlreadyPending extends Schema.TaggedError<InvitationAlreadyPending>()(
  "InvitationAlreadyPending",
  { message: message("A pending invitation for this email already exists in this organization.") },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** Only a pending invitation can be accepted, rejected or revoked. */
export class InvitationNotPending extends Schema.TaggedError<InvitationNotPending>()(
  "InvitationNotPending",
  { invitationStatus: InvitationStatus },
  HttpApiSchema.annotations({ status: 409 })
) {
  override get message() {
    return `This invitation is ${this.invitationStatus}; only a pending invitation can be acted on.`
  }
}

/** Answering an invitation sent to another address. */
export class InvitationForAnotherEmail extends Schema.TaggedError<InvitationForAnotherEmail>()(
  "InvitationForAnotherEmail",
  { message: message("This invitation was sent to another email address.") },
  HttpApiSchema.annotations({ status: 403 })
) {}

/** Answering an invitation before verifying one's own address. */
export class EmailNotVerified extends Schema.TaggedError<EmailNotVerified>()(
  "EmailNotVerified",
  { message: message("Verify your email address before answering this invitation.") },
  HttpApiSchema.annotations({ status: 403 })
) {}

// Tokens

export class TokenNotFound extends Schema.TaggedError<TokenNotFound>()(
  "TokenNotFound",
  { message: message("The token was not found.") },
  HttpApiSchema.annotations({ status: 404 })
) {}

// Connections

export class ConnectionNotFound extends Schema.TaggedError<ConnectionNotFound>()(
  "ConnectionNotFound",
  { message: message("The connection was not found.") },
  HttpApiSchema.annotations({ status: 404 })
) {}

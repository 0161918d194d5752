// The foundation's identifiers, each branded with what it identifies, so that the compiler refuses
// a member id where an organization id is expected. All are strings of 1 to 160 characters on the
// wire (base contract §8); the brand exists only in the types.
import * as Schema from "effect/Schema"

/** Every identifier of the contract: a string of 1 to 160 characters. */
export const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(160))

export const OrganizationId = Id.pipe(Schema.brand("OrganizationId"))
export type OrganizationId = typeof OrganizationId.Type

export const UserId = Id.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

/** A membership: the `memberId` of member paths. */
export const MemberId = Id.pipe(Schema.brand("MemberId"))
export type MemberId = typeof MemberId.Type

export const InvitationId = Id.pipe(Schema.brand("InvitationId"))
export type InvitationId = typeof InvitationId.Type

/** An organization API token's id (not the token). */
export const TokenId = Id.pipe(Schema.brand("TokenId"))
export type TokenId = typeof TokenId.Type

/** A session's id (not its token). */
export const SessionId = Id.pipe(Schema.brand("SessionId"))
export type SessionId = typeof SessionId.Type

/** An OAuth grant: the `connectionId` of connection paths. */
export const GrantId = Id.pipe(Schema.brand("GrantId"))
export type GrantId = typeof GrantId.Type

/** The path parameters of every operation under /organizations/{organizationId}. */
export const OrganizationPath = Schema.Struct({ organizationId: OrganizationId })

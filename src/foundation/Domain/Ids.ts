// The foundation's identifiers, each branded with what it identifies, so that the compiler refuses
// a member id where an organization id is expected. All are strings of 1 to 160 characters on the
// wire (base contract §8); the brand exists only in the types.
import * as Schema from "effect/Schema"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { Text } from "./Text.js"

const idBounds = { minimum: 1, maximum: 160 } as const

/** How the documents name an identifier of `what`. */
const idOf = (title: string, what: string) =>
  documented(title, `The id of ${what}: ${characters(idBounds.minimum, idBounds.maximum)}.`)

/** Every identifier of the contract: a string of 1 to 160 characters. */
export const Id = Text.pipe(Schema.minLength(idBounds.minimum), Schema.maxLength(idBounds.maximum)).pipe(
  documented("Identifier", `An identifier: ${characters(idBounds.minimum, idBounds.maximum)}.`)
)

export const OrganizationId = Id.pipe(Schema.brand("OrganizationId")).pipe(
  idOf("Organization id", "an organization")
)
export type OrganizationId = typeof OrganizationId.Type

export const UserId = Id.pipe(Schema.brand("UserId")).pipe(idOf("User id", "a user account"))
export type UserId = typeof UserId.Type

/** A membership: the `memberId` of member paths. */
export const MemberId = Id.pipe(Schema.brand("MemberId")).pipe(idOf("Member id", "a membership"))
export type MemberId = typeof MemberId.Type

export const InvitationId = Id.pipe(Schema.brand("InvitationId")).pipe(idOf("Invitation id", "an invitation"))
export type InvitationId = typeof InvitationId.Type

/** An organization API token's id (not the token). */
export const TokenId = Id.pipe(Schema.brand("TokenId")).pipe(
  idOf("Token id", "an organization API token (not the token itself)")
)
export type TokenId = typeof TokenId.Type

/** A session's id (not its token). */
export const SessionId = Id.pipe(Schema.brand("SessionId")).pipe(
  idOf("Session id", "a session (not its token)")
)
export type SessionId = typeof SessionId.Type

/** An OAuth grant: the `connectionId` of connection paths. */
export const GrantId = Id.pipe(Schema.brand("GrantId"))
export type GrantId = typeof GrantId.Type

/** The path parameters of every operation under /organizations/{organizationId}. */
export const OrganizationPath = Schema.Struct({ organizationId: OrganizationId })

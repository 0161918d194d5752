// The user profile of the base contract (§2): all seven fields are always present.
import * as Schema from "effect/Schema"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { Email } from "./Common.js"
import { UserId } from "./Ids.js"
import { Text } from "./Text.js"

export const Theme = Schema.Literal("system", "light", "dark")
export type Theme = typeof Theme.Type

export class UserProfile extends Schema.Class<UserProfile>("UserProfile")({
  id: UserId,
  name: Schema.String,
  email: Email,
  emailVerified: Schema.Boolean,
  preferredName: Schema.NullOr(Schema.String),
  theme: Theme,
  onboardingCompleted: Schema.Boolean
}) {}

/** A person's display name: 1 to 120 characters. */
export const PersonName = Text.pipe(Schema.minLength(1), Schema.maxLength(120)).pipe(
  documented("Name", `The person's display name: ${characters(1, 120)}.`)
)

/** A new password: 8 to 128 characters. */
export const Password = Text.pipe(Schema.minLength(8), Schema.maxLength(128)).pipe(
  documented("Password", `A new password: ${characters(8, 128)}.`)
)

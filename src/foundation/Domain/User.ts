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

/** The bounds of a person's display name (also said in words on the pages). */
export const personNameBounds = { minimum: 1, maximum: 120 } as const

/** A person's display name: 1 to 120 characters. */
export const PersonName = Text.pipe(
  Schema.minLength(personNameBounds.minimum),
  Schema.maxLength(personNameBounds.maximum)
).pipe(
  documented(
    "Name",
    `The person's display name: ${characters(personNameBounds.minimum, personNameBounds.maximum)}.`
  )
)

/** The bounds of a new password (also said in words on the pages). */
export const passwordBounds = { minimum: 8, maximum: 128 } as const

/** A new password: 8 to 128 characters. */
export const Password = Text.pipe(
  Schema.minLength(passwordBounds.minimum),
  Schema.maxLength(passwordBounds.maximum)
).pipe(
  documented("Password", `A new password: ${characters(passwordBounds.minimum, passwordBounds.maximum)}.`)
)

/** The bounds of a preferred name. */
export const preferredNameBounds = { minimum: 1, maximum: 80 } as const

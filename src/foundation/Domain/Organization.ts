// Organizations as the base contract (§2) describes them: without `role` when read by id, with
// the caller's `role` in lists and in the context read.
import * as Schema from "effect/Schema"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { Role } from "./Common.js"
import { OrganizationId } from "./Ids.js"
import { Text } from "./Text.js"

/** The longest an organization's fields may be (base contract §8, extensions §2), for schemas and pages. */
export const organizationBounds = {
  name: 120,
  slug: 60,
  companyName: 160,
  phone: 40,
  address: 500
} as const

/** 1 to 60 characters of lowercase letters, digits and dashes (extensions §2). */
export const Slug = Text.pipe(
  Schema.minLength(1),
  Schema.maxLength(organizationBounds.slug),
  Schema.pattern(/^[a-z0-9-]+$/, { message: () => "must use only lowercase letters, digits and -" }),
  Schema.brand("Slug")
).pipe(
  documented(
    "Slug",
    `The organization's short name in URLs: ${characters(1, organizationBounds.slug)}, lowercase letters, digits and -.`
  )
)
export type Slug = typeof Slug.Type

const organizationFields = {
  id: OrganizationId,
  name: Schema.String,
  slug: Slug,
  companyName: Schema.NullOr(Schema.String),
  website: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  version: Schema.Int.pipe(Schema.between(-9007199254740991, 9007199254740991)).pipe(
    documented(
      "Version",
      "The record's counter for optimistic concurrency: send it back with an update. A safe integer, " +
        "-9007199254740991 to 9007199254740991."
    )
  )
}

export class Organization extends Schema.Class<Organization>("Organization")(organizationFields) {}

export class OrganizationWithRole extends Schema.Class<OrganizationWithRole>("OrganizationWithRole")({
  ...organizationFields,
  role: Role
}) {}

export const OrganizationName = Text.pipe(
  Schema.minLength(1),
  Schema.maxLength(organizationBounds.name)
).pipe(documented("Organization name", `The organization's name: ${characters(1, organizationBounds.name)}.`))

/**
 * A website is shown to people as a link, so it must be a web page: `http` or `https` with a host.
 * Anything else is refused, not only the schemes that run script (`javascript:`, `data:`,
 * `vbscript:`) but also `file:` (a path on the reader's own machine) and the rest.
 */
const isWebsite = (value: string): boolean => {
  if (value === "") return true
  // An absolute URI without whitespace (RFC 3986), whose scheme is followed by `//` and a host.
  if (!/^https?:\/\/\S+$/i.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
  } catch {
    return false
  }
}

/** `website` in an update: empty (clears it) or an http or https URL (base contract §4, issue 14). */
const websiteDescription =
  "An http or https URL such as https://example.com, or an empty string to clear it (other schemes, such as file:, javascript: or data:, are refused)."

export const Website = Text.pipe(
  Schema.filter(isWebsite, {
    message: () => "must be empty or an http or https URL such as https://example.com"
  })
).annotations({
  description: websiteDescription,
  jsonSchema: {
    description: websiteDescription,
    anyOf: [
      { type: "string", enum: [""] },
      { type: "string", format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" }
    ]
  }
})

/** A company detail in an update: at most `max` characters; an empty string clears it. */
export const CompanyDetail = (title: string, max: number) =>
  Text.pipe(Schema.maxLength(max)).pipe(
    documented(title, `${characters(0, max)}; an empty string clears it.`)
  )

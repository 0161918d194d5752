// Organizations as the base contract (§2) describes them: without `role` when read by id, with
// the caller's `role` in lists and in the context read.
import * as Schema from "effect/Schema"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { Role } from "./Common.js"
import { OrganizationId } from "./Ids.js"

/** 1 to 60 characters of lowercase letters, digits and dashes (extensions §2). */
export const Slug = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(60),
  Schema.pattern(/^[a-z0-9-]+$/, { message: () => "must use only lowercase letters, digits and -" }),
  Schema.brand("Slug")
).pipe(
  documented(
    "Slug",
    `The organization's short name in URLs: ${characters(1, 60)}, lowercase letters, digits and -.`
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

export const OrganizationName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120)).pipe(
  documented("Organization name", `The organization's name: ${characters(1, 120)}.`)
)

/** Schemes whose links run script in the reader's browser: refused as a website. */
const scriptSchemes = new Set(["javascript:", "data:", "vbscript:"])

const isWebsite = (value: string): boolean => {
  if (value === "") return true
  // An absolute URI (RFC 3986: a scheme, then no whitespace); WHATWG URL parsing catches the rest.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(value)) return false
  try {
    return !scriptSchemes.has(new URL(value).protocol.toLowerCase())
  } catch {
    return false
  }
}

/** `website` in an update: empty (clears it) or an absolute URI (base contract §4). */
const websiteDescription =
  "An absolute URI such as https://example.com, or an empty string to clear it (javascript:, data: and vbscript: URIs are refused)."

export const Website = Schema.String.pipe(
  Schema.filter(isWebsite, { message: () => "must be empty or an absolute URI such as https://example.com" })
).annotations({
  description: websiteDescription,
  jsonSchema: {
    description: websiteDescription,
    anyOf: [
      { type: "string", enum: [""] },
      { type: "string", format: "uri" }
    ]
  }
})

/** A company detail in an update: at most `max` characters; an empty string clears it. */
export const CompanyDetail = (title: string, max: number) =>
  Schema.String.pipe(Schema.maxLength(max)).pipe(
    documented(title, `${characters(0, max)}; an empty string clears it.`)
  )

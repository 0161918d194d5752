// Organizations as the base contract (§2) describes them: without `role` when read by id, with
// the caller's `role` in lists and in the context read.
import * as Schema from "effect/Schema"
import { Role } from "./Common.js"
import { OrganizationId } from "./Ids.js"
import { Text } from "./Text.js"

/** 1 to 60 characters of lowercase letters, digits and dashes (extensions §2). */
export const Slug = Text.pipe(
  Schema.minLength(1),
  Schema.maxLength(60),
  Schema.pattern(/^[a-z0-9-]+$/, { message: () => "must use only lowercase letters, digits and -" }),
  Schema.brand("Slug")
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
  version: Schema.Int.pipe(Schema.between(-9007199254740991, 9007199254740991))
}

export class Organization extends Schema.Class<Organization>("Organization")(organizationFields) {}

export class OrganizationWithRole extends Schema.Class<OrganizationWithRole>("OrganizationWithRole")({
  ...organizationFields,
  role: Role
}) {}

export const OrganizationName = Text.pipe(Schema.minLength(1), Schema.maxLength(120))

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

export const Website = Text.pipe(
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
export const CompanyDetail = (max: number) => Text.pipe(Schema.maxLength(max))

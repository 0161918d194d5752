// Organizations as the base contract (§2) describes them: without `role` when read by id, with
// the caller's `role` in lists and in the context read.
import * as Schema from "effect/Schema"
import { Id, Role } from "./Common.js"

const organizationFields = {
  id: Id,
  name: Schema.String,
  slug: Schema.String,
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

/** 1 to 60 characters of lowercase letters, digits and dashes (extensions §2). */
export const Slug = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(60),
  Schema.pattern(/^[a-z0-9-]+$/, { message: () => "must use only lowercase letters, digits and -" })
)

export const OrganizationName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120))

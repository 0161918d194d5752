// An organization read in another area's statement: a bearer credential's lookup returns the
// organization the credential is bound to in the same round trip.
import type * as Schema from "effect/Schema"
import type { OrganizationId } from "../Domain/Ids.js"
import { Organization } from "../Domain/Organization.js"

/**
 * The columns of the organization (aliased `o`); decode them with `BoundOrganizationFields` and
 * build the row with `boundOrganization`.
 */
export const boundOrganizationColumns = `o.name AS org_name, o.slug AS org_slug, o.company_name AS org_company_name,
  o.website AS org_website, o.phone AS org_phone, o.address AS org_address, o.version AS org_version`

export const BoundOrganizationFields = {
  orgName: Organization.fields.name,
  orgSlug: Organization.fields.slug,
  orgCompanyName: Organization.fields.companyName,
  orgWebsite: Organization.fields.website,
  orgPhone: Organization.fields.phone,
  orgAddress: Organization.fields.address,
  orgVersion: Organization.fields.version
}

type BoundOrganizationRow = Schema.Struct.Type<typeof BoundOrganizationFields> & {
  readonly organizationId: OrganizationId
}

/** The organization of a row decoded with `BoundOrganizationFields` (already valid: no second check). */
export const boundOrganization = (row: BoundOrganizationRow): Organization =>
  new Organization(
    {
      id: row.organizationId,
      name: row.orgName,
      slug: row.orgSlug,
      companyName: row.orgCompanyName,
      website: row.orgWebsite,
      phone: row.orgPhone,
      address: row.orgAddress,
      version: row.orgVersion
    },
    true
  )

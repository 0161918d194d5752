// The endpoints of organizations (group `organizations`: create, list, get, update, switch) and of
// the caller's context (group `context`). get and update accept bearer tokens; the rest sessions only.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { errorDoc } from "../../http/ApiError.js"
import { documented } from "../../http/OpenApiDocument.js"
import { Success } from "../Domain/Common.js"
import { CredentialContext } from "../Domain/CredentialContext.js"
import {
  DelegatorNotMember,
  OrganizationNotFound,
  RoleNotPermitted,
  SlugTaken,
  StaleVersion,
  TokenForAnotherOrganization,
  TokenScopeMissing,
  Unauthenticated
} from "../Domain/Errors.js"
import { OrganizationId, OrganizationPath } from "../Domain/Ids.js"
import {
  CompanyDetail,
  Organization,
  OrganizationName,
  OrganizationWithRole,
  organizationBounds,
  Slug,
  Website
} from "../Domain/Organization.js"
import { UserProfile } from "../Domain/User.js"
import { CredentialAuth, RequiredScope, SessionAuth } from "../Security/Authentication.js"

export const CreateOrganizationRequest = Schema.Struct({
  name: OrganizationName,
  slug: Schema.optional(Slug)
})

export const ContextResponse = Schema.Struct({
  user: UserProfile,
  activeOrganizationId: Schema.NullOr(OrganizationId),
  organizations: Schema.Array(OrganizationWithRole)
})

/**
 * organizations.update (base contract §4): `version` and `name` are required; an omitted company
 * detail is kept, an empty string clears it.
 */
export const UpdateOrganizationRequest = Schema.Struct({
  version: Schema.Int.pipe(
    Schema.between(0, Number.MAX_SAFE_INTEGER),
    Schema.annotations({ description: "The organization's current version (optimistic concurrency)." }),
    documented(
      "Version",
      `The organization's current version (optimistic concurrency): 0 to ${Number.MAX_SAFE_INTEGER}.`
    )
  ),
  name: OrganizationName,
  companyName: Schema.optional(CompanyDetail("Company name", organizationBounds.companyName)),
  website: Schema.optional(Website),
  phone: Schema.optional(CompanyDetail("Phone", organizationBounds.phone)),
  address: Schema.optional(CompanyDetail("Address", organizationBounds.address))
})
export type UpdateOrganizationRequest = typeof UpdateOrganizationRequest.Type

export const SwitchOrganizationRequest = Schema.Struct({ organizationId: OrganizationId })

export const OrganizationsApi = HttpApiGroup.make("organizations")
  .annotate(OpenApi.Description, "Organizations and the session's active one")
  .add(
    HttpApiEndpoint.post("create", "/organizations")
      .annotate(OpenApi.Summary, "Create an organization; the caller becomes its owner")
      .setPayload(CreateOrganizationRequest)
      .addSuccess(Organization)
      .addError(errorDoc(SlugTaken))
      .middleware(SessionAuth)
  )
  .add(
    HttpApiEndpoint.get("list", "/organizations")
      .annotate(OpenApi.Summary, "The caller's organizations, each with the caller's role")
      .addSuccess(Schema.Array(OrganizationWithRole))
      .middleware(SessionAuth)
  )
  .add(
    HttpApiEndpoint.get("get", "/organizations/:organizationId")
      .annotate(OpenApi.Summary, "One organization")
      .annotate(
        OpenApi.Description,
        "Any member's session, or a token of this organization with organizations:read. A session of someone who is not a member gets 404, as for an organization that does not exist; a token of another organization 403."
      )
      .annotate(RequiredScope, "organizations:read")
      .setPath(OrganizationPath)
      .addSuccess(Organization)
      .addError(errorDoc(OrganizationNotFound))
      .addError(errorDoc(RoleNotPermitted))
      .addError(errorDoc(TokenForAnotherOrganization))
      .addError(errorDoc(TokenScopeMissing))
      .addError(errorDoc(DelegatorNotMember))
      .middleware(CredentialAuth)
  )
  .add(
    HttpApiEndpoint.patch("update", "/organizations/:organizationId")
      .annotate(OpenApi.Summary, "Update an organization (optimistic concurrency on version)")
      .annotate(
        OpenApi.Description,
        "Allowed for owners and admins, and for tokens of this organization with organizations:write. `version` must be the current one: otherwise 409, which also makes retrying a completed write safe. Omitted company details are kept; an empty string clears one to null."
      )
      .annotate(RequiredScope, "organizations:write")
      .setPath(OrganizationPath)
      .setPayload(UpdateOrganizationRequest)
      .addSuccess(Organization)
      .addError(errorDoc(OrganizationNotFound))
      .addError(errorDoc(RoleNotPermitted))
      .addError(errorDoc(TokenForAnotherOrganization))
      .addError(errorDoc(TokenScopeMissing))
      .addError(errorDoc(DelegatorNotMember))
      .addError(errorDoc(StaleVersion))
      .middleware(CredentialAuth)
  )
  .add(
    HttpApiEndpoint.post("switch", "/context/organization")
      .annotate(OpenApi.Summary, "Set the session's active organization")
      .setPayload(SwitchOrganizationRequest)
      .addSuccess(Success)
      .addError(errorDoc(OrganizationNotFound))
      .middleware(SessionAuth)
  )

export const ContextApi = HttpApiGroup.make("context")
  .annotate(OpenApi.Description, "Who is calling")
  .add(
    HttpApiEndpoint.get("credential", "/credential-context")
      .annotate(OpenApi.Summary, "Who the calling credential is: organization and scopes")
      .addSuccess(CredentialContext)
      .addError(errorDoc(Unauthenticated))
      .middleware(CredentialAuth)
  )
  .add(
    HttpApiEndpoint.get("get", "/context")
      .annotate(OpenApi.Summary, "The signed-in user, the active organization and every organization")
      .addSuccess(ContextResponse)
      .middleware(SessionAuth)
  )

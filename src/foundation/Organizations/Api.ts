// The endpoints of organizations (group `organizations`) and of the caller's context (group
// `context`). Issue 5 adds list, get, update and switch to the organizations group.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Conflict, errorDoc } from "../../http/ApiError.js"
import { Id } from "../Domain/Common.js"
import { CredentialContext } from "../Domain/CredentialContext.js"
import { Organization, OrganizationName, OrganizationWithRole, Slug } from "../Domain/Organization.js"
import { UserProfile } from "../Domain/User.js"
import { CredentialAuth, SessionAuth } from "../Security/Authentication.js"

export const CreateOrganizationRequest = Schema.Struct({
  name: OrganizationName,
  slug: Schema.optional(Slug)
})

export const ContextResponse = Schema.Struct({
  user: UserProfile,
  activeOrganizationId: Schema.NullOr(Id),
  organizations: Schema.Array(OrganizationWithRole)
})

export const OrganizationsApi = HttpApiGroup.make("organizations").add(
  HttpApiEndpoint.post("create", "/organizations")
    .setPayload(CreateOrganizationRequest)
    .addSuccess(Organization)
    .addError(errorDoc(Conflict))
    .middleware(SessionAuth)
)

export const ContextApi = HttpApiGroup.make("context")
  .add(
    HttpApiEndpoint.get("credential", "/credential-context")
      .addSuccess(CredentialContext)
      .middleware(CredentialAuth)
  )
  .add(HttpApiEndpoint.get("get", "/context").addSuccess(ContextResponse).middleware(SessionAuth))

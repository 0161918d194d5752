// The connections operations (extensions §8), group `connections`: session only. A person's own
// grants at /connections; an organization's at /organizations/{organizationId}/connections, whose
// operationIds the contract names `organizations.connections` and `organizations.revokeConnection`.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { errorDoc } from "../../http/ApiError.js"
import { Page, PageQuery, Success } from "../Domain/Common.js"
import { Connection, OrganizationConnection } from "../Domain/Connection.js"
import {
  ConnectionNotFound,
  InvalidCursor,
  OrganizationNotFound,
  RoleNotPermitted
} from "../Domain/Errors.js"
import { GrantId, OrganizationId, OrganizationPath } from "../Domain/Ids.js"
import { SessionAuth } from "../Security/Authentication.js"

export const ConnectionsApi = HttpApiGroup.make("connections")
  .annotate(
    OpenApi.Description,
    "Connections: the OAuth grants through which apps and agents act for a person on one organization"
  )
  .add(
    HttpApiEndpoint.get("list", "/connections")
      .annotate(OpenApi.Summary, "The connections the signed-in person approved, newest first")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Connection))
      .addError(errorDoc(InvalidCursor))
  )
  .add(
    HttpApiEndpoint.del("revoke", "/connections/:connectionId")
      .annotate(OpenApi.Summary, "End one of the signed-in person's connections")
      .annotate(
        OpenApi.Description,
        "Its access and refresh tokens stop working at once. Another person's connection is 404."
      )
      .setPath(Schema.Struct({ connectionId: GrantId }))
      .addSuccess(Success)
      .addError(errorDoc(ConnectionNotFound))
  )
  .add(
    HttpApiEndpoint.get("organization", "/organizations/:organizationId/connections")
      .annotate(OpenApi.Identifier, "organizations.connections")
      .annotate(OpenApi.Summary, "Every connection on the organization, with the person it acts for")
      .annotate(
        OpenApi.Description,
        "Owners and admins only (a member gets 403; someone who is not a member 404). Newest first."
      )
      .setPath(OrganizationPath)
      .setUrlParams(PageQuery)
      .addSuccess(Page(OrganizationConnection))
      .addError(errorDoc(InvalidCursor))
      .addError(errorDoc(OrganizationNotFound))
      .addError(errorDoc(RoleNotPermitted))
  )
  .add(
    HttpApiEndpoint.del("revokeForOrganization", "/organizations/:organizationId/connections/:connectionId")
      .annotate(OpenApi.Identifier, "organizations.revokeConnection")
      .annotate(OpenApi.Summary, "End a connection on the organization")
      .annotate(OpenApi.Description, "Owners and admins only. A connection on another organization is 404.")
      .setPath(Schema.Struct({ organizationId: OrganizationId, connectionId: GrantId }))
      .addSuccess(Success)
      .addError(errorDoc(ConnectionNotFound))
      .addError(errorDoc(OrganizationNotFound))
      .addError(errorDoc(RoleNotPermitted))
  )
  .middleware(SessionAuth)

// The endpoints of memberships (base contract §4, extensions §3), group `members`: session only.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { errorDoc } from "../../http/ApiError.js"
import { Page, PageQuery, Role, Success } from "../Domain/Common.js"
import {
  InvalidCursor,
  LastOwner,
  MemberNotFound,
  OrganizationNotFound,
  RoleNotPermitted
} from "../Domain/Errors.js"
import { MemberId, OrganizationId, OrganizationPath } from "../Domain/Ids.js"
import { Member } from "../Domain/Member.js"
import { SessionAuth } from "../Security/Authentication.js"

export const UpdateRoleRequest = Schema.Struct({ role: Role })

const MemberPath = Schema.Struct({ organizationId: OrganizationId, memberId: MemberId })

export const MembersApi = HttpApiGroup.make("members")
  .annotate(OpenApi.Description, "Memberships: owners manage anyone, admins non-owners, members may leave")
  .add(
    HttpApiEndpoint.get("list", "/organizations/:organizationId/members")
      .annotate(OpenApi.Summary, "The organization's members, in the order they joined")
      .setPath(OrganizationPath)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Member))
      .addError(errorDoc(InvalidCursor))
  )
  .add(
    HttpApiEndpoint.patch("updateRole", "/organizations/:organizationId/members/:memberId")
      .annotate(OpenApi.Summary, "Change a member's role")
      .annotate(
        OpenApi.Description,
        'Owners may give any role to anyone; admins may make non-owners member or admin; members may change nothing (403). The last owner cannot be demoted: 400 with data { reason: "LAST_OWNER" }.'
      )
      .setPath(MemberPath)
      .setPayload(UpdateRoleRequest)
      .addSuccess(Success)
      .addError(errorDoc(MemberNotFound))
      .addError(errorDoc(LastOwner))
  )
  .add(
    HttpApiEndpoint.del("remove", "/organizations/:organizationId/members/:memberId")
      .annotate(OpenApi.Summary, "Remove a member, or leave the organization")
      .annotate(
        OpenApi.Description,
        'Owners may remove anyone, admins non-owners, members only themselves (leaving). The last owner cannot be removed: 400 with data { reason: "LAST_OWNER" }.'
      )
      .setPath(MemberPath)
      .addSuccess(Success)
      .addError(errorDoc(MemberNotFound))
      .addError(errorDoc(LastOwner))
  )
  .addError(errorDoc(OrganizationNotFound))
  .addError(errorDoc(RoleNotPermitted))
  .middleware(SessionAuth)

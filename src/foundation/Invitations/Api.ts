// The endpoints of invitations (extensions §4), group `invitations`: session only. Managing them
// is scoped to an organization; accepting and rejecting belong to the invitee.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { errorDoc } from "../../http/ApiError.js"
import { Email, Page, PageQuery, Role, Success } from "../Domain/Common.js"
import {
  AlreadyMember,
  EmailNotVerified,
  InvalidCursor,
  InvitationAlreadyPending,
  InvitationForAnotherEmail,
  InvitationNotFound,
  InvitationNotPending,
  InviteeAlreadyMember,
  OrganizationNotFound,
  RoleNotPermitted
} from "../Domain/Errors.js"
import { InvitationId, OrganizationId, OrganizationPath } from "../Domain/Ids.js"
import { Invitation } from "../Domain/Invitation.js"
import { SessionAuth } from "../Security/Authentication.js"

export const CreateInvitationRequest = Schema.Struct({ email: Email, role: Role })

export class AcceptedInvitation extends Schema.Class<AcceptedInvitation>("AcceptedInvitation")({
  success: Schema.Literal(true),
  organizationId: OrganizationId
}) {}

const InvitationPath = Schema.Struct({ invitationId: InvitationId })

/** What the invitee answering an invitation can be refused with. */
const AnswerRefused = Schema.Union(
  errorDoc(InvitationNotFound),
  errorDoc(InvitationForAnotherEmail),
  errorDoc(EmailNotVerified),
  errorDoc(InvitationNotPending)
)

export const InvitationsApi = HttpApiGroup.make("invitations")
  .annotate(OpenApi.Description, "Invitations by email, valid 7 days, answered by the verified invitee")
  .add(
    HttpApiEndpoint.get("list", "/organizations/:organizationId/invitations")
      .annotate(OpenApi.Summary, "The organization's invitations, newest first")
      .setPath(OrganizationPath)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Invitation))
      .addError(errorDoc(OrganizationNotFound))
      .addError(errorDoc(InvalidCursor))
  )
  .add(
    HttpApiEndpoint.post("create", "/organizations/:organizationId/invitations")
      .annotate(OpenApi.Summary, "Invite someone by email")
      .annotate(
        OpenApi.Description,
        "Owners and admins (admins never as owner). The invitation is pending for 7 days; a second pending invitation for the same email, or one for a member, is 409. The invitee gets a message with a link to accept."
      )
      .setPath(OrganizationPath)
      .setPayload(CreateInvitationRequest)
      .addSuccess(Invitation)
      .addError(errorDoc(OrganizationNotFound))
      .addError(errorDoc(RoleNotPermitted))
      .addError(errorDoc(InviteeAlreadyMember))
      .addError(errorDoc(InvitationAlreadyPending))
  )
  .add(
    HttpApiEndpoint.del("revoke", "/organizations/:organizationId/invitations/:invitationId")
      .annotate(OpenApi.Summary, "Revoke a pending invitation")
      .setPath(Schema.Struct({ organizationId: OrganizationId, invitationId: InvitationId }))
      .addSuccess(Success)
      .addError(errorDoc(OrganizationNotFound))
      .addError(errorDoc(RoleNotPermitted))
      .addError(errorDoc(InvitationNotFound))
      .addError(errorDoc(InvitationNotPending))
  )
  .add(
    HttpApiEndpoint.post("accept", "/invitations/:invitationId/accept")
      .annotate(OpenApi.Summary, "Accept an invitation sent to your verified email")
      .annotate(
        OpenApi.Description,
        "Only a session whose verified email is the invitation's (403 otherwise); an invitation that is not pending is 409. Joins the organization with the invitation's role."
      )
      .setPath(InvitationPath)
      .addSuccess(AcceptedInvitation)
      .addError(AnswerRefused)
      .addError(errorDoc(AlreadyMember))
  )
  .add(
    HttpApiEndpoint.post("reject", "/invitations/:invitationId/reject")
      .annotate(OpenApi.Summary, "Reject an invitation sent to your verified email")
      .setPath(InvitationPath)
      .addSuccess(Success)
      .addError(AnswerRefused)
  )
  .middleware(SessionAuth)

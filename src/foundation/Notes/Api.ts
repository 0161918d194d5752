// The endpoints of the organization's notebook (catalog-extensions §12), group `notes`: people see
// and tidy what agents saved for them. Both accept a session or a bearer token of the organization.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { errorDoc } from "../../http/ApiError.js"
import { Page, PageQuery, Success } from "../Domain/Common.js"
import {
  DelegatorNotMember,
  InvalidCursor,
  OrganizationNotFound,
  RoleNotPermitted,
  TokenForAnotherOrganization,
  TokenScopeMissing
} from "../Domain/Errors.js"
import { OrganizationId, OrganizationPath } from "../Domain/Ids.js"
import { CredentialAuth, RequiredScope } from "../Security/Authentication.js"
import { Note, NoteId, NoteNotFound, NoteWritesExhausted } from "./Note.js"

const NotePath = Schema.Struct({ organizationId: OrganizationId, noteId: NoteId })

export const NotesApi = HttpApiGroup.make("notes")
  .annotate(
    OpenApi.Description,
    "The organization's notebook: notes on episodes and transcript paragraphs that agents saved through /mcp/agent"
  )
  .add(
    HttpApiEndpoint.get("list", "/organizations/:organizationId/notes")
      .annotate(OpenApi.Summary, "The organization's notes, oldest first")
      .annotate(
        OpenApi.Description,
        "Any member's session, or a token of this organization with organizations:read. Each note names its episode (and paragraph), its author and the client that saved it."
      )
      .annotate(RequiredScope, "organizations:read")
      .setPath(OrganizationPath)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Note))
      .addError(errorDoc(InvalidCursor))
  )
  .add(
    HttpApiEndpoint.del("delete", "/organizations/:organizationId/notes/:noteId")
      .annotate(OpenApi.Summary, "Delete a note")
      .annotate(
        OpenApi.Description,
        "Owners and admins may delete any note, members the notes they wrote; a token needs organizations:write and acts as the person it acts for."
      )
      .annotate(RequiredScope, "organizations:write")
      .setPath(NotePath)
      .addSuccess(Success)
      .addError(errorDoc(NoteNotFound))
      .addError(errorDoc(NoteWritesExhausted))
  )
  .addError(errorDoc(OrganizationNotFound))
  .addError(errorDoc(RoleNotPermitted))
  .addError(errorDoc(TokenForAnotherOrganization))
  .addError(errorDoc(TokenScopeMissing))
  .addError(errorDoc(DelegatorNotMember))
  .middleware(CredentialAuth)

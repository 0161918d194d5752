// The foundation HttpApi at /api/v1: every group, the errors any endpoint may answer, and the
// OpenAPI identity (3.1.1, version 1.0.0) of the document served at `GET /api/v1/openapi.json`.
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { BadRequest, errorDoc, MethodNotAllowed, PayloadTooLarge } from "../http/ApiError.js"
import { serviceLicense } from "../http/OpenApiDocument.js"
import { AuthApi, ProfileApi, SecurityApi } from "./Accounts/Api.js"
import { DatabaseUnavailable } from "./Domain/Errors.js"
import { documentFoundationApi } from "./FoundationOpenApi.js"
import { InvitationsApi } from "./Invitations/Api.js"
import { MembersApi } from "./Members/Api.js"
import { NotesApi } from "./Notes/Api.js"
import { ConnectionsApi } from "./OAuth/Api.js"
import { ContextApi, OrganizationsApi } from "./Organizations/Api.js"
import { ReferenceApi } from "./Reference/Api.js"
import { TokensApi } from "./Tokens/Api.js"

export const FoundationApi = HttpApi.make("foundation")
  .add(AuthApi)
  .add(SecurityApi)
  .add(ProfileApi)
  .add(ContextApi)
  .add(OrganizationsApi)
  .add(MembersApi)
  .add(InvitationsApi)
  .add(TokensApi)
  .add(ConnectionsApi)
  .add(NotesApi)
  .add(ReferenceApi)
  .addError(errorDoc(BadRequest))
  .addError(errorDoc(DatabaseUnavailable))
  // Answered by the server's edge for any path (405 with Allow) and any body over MAX_BODY_BYTES
  // (413); the document's transform keeps each where it applies.
  .addError(errorDoc(MethodNotAllowed))
  .addError(errorDoc(PayloadTooLarge))
  .prefix("/api/v1")
  .annotateContext(
    OpenApi.annotations({
      title: "Foundation Account and Organization Service",
      version: "1.0.0",
      license: serviceLicense,
      description:
        "Accounts, organizations, memberships, invitations, profile and organization API tokens. " +
        "Every error uses one envelope: { defined, code, status, message, data? }.",
      // Paths carry the /api/v1 prefix: the reference page calls its own origin; /openapi.json names PUBLIC_ORIGIN.
      servers: [{ url: "/", description: "This service" }],
      override: { openapi: "3.1.1" },
      // Reads the endpoints' middleware, so it refers to the finished API (called when the document is built).
      transform: (spec): Record<string, unknown> => documentFoundationApi(spec, FoundationApi)
    })
  )

// The foundation HttpApi at /api/v1: every group, the errors any endpoint may answer, and the
// OpenAPI identity (3.1.1, version 1.0.0) from which `GET /api/v1/openapi.json` can be served.
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { BadRequest, errorDoc, ServiceUnavailable } from "../http/ApiError.js"
import { AuthApi, ProfileApi, SecurityApi } from "./Accounts/Api.js"
import { ContextApi, OrganizationsApi } from "./Organizations/Api.js"
import { TokensApi } from "./Tokens/Api.js"

export const FoundationApi = HttpApi.make("foundation")
  .add(AuthApi)
  .add(SecurityApi)
  .add(ProfileApi)
  .add(ContextApi)
  .add(OrganizationsApi)
  .add(TokensApi)
  .addError(errorDoc(BadRequest))
  .addError(errorDoc(ServiceUnavailable))
  .prefix("/api/v1")
  .annotateContext(
    OpenApi.annotations({
      title: "Foundation Account and Organization Service",
      version: "1.0.0",
      override: { openapi: "3.1.1" }
    })
  )

// The endpoints of organization API tokens (extensions §5), group `tokens`: session only.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { errorDoc } from "../../http/ApiError.js"
import { characters, documented } from "../../http/OpenApiDocument.js"
import { Page, PageQuery, Scope, Success, Timestamp } from "../Domain/Common.js"
import { InvalidCursor, OrganizationNotFound, RoleNotPermitted, TokenNotFound } from "../Domain/Errors.js"
import { OrganizationId, OrganizationPath, TokenId, UserId } from "../Domain/Ids.js"
import { Text } from "../Domain/Text.js"
import { SessionAuth } from "../Security/Authentication.js"

export const CreateTokenRequest = Schema.Struct({
  name: Text.pipe(Schema.minLength(1), Schema.maxLength(80)).pipe(
    documented("Token name", `A name to tell the token by: ${characters(1, 80)}.`)
  ),
  scopes: Schema.NonEmptyArray(Scope),
  expiresInDays: Schema.Int.pipe(Schema.between(1, 365)).pipe(
    documented("Lifetime in days", "Days until the token expires: 1 to 365.")
  )
})

export const CreatedToken = Schema.Struct({
  id: TokenId,
  name: Schema.String,
  scopes: Schema.Array(Scope),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  /** Shown once: only its hash is kept. */
  token: Schema.String
})

export const TokenItem = Schema.Struct({
  id: TokenId,
  name: Schema.String,
  scopes: Schema.Array(Scope),
  prefix: Schema.String,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp),
  /** The person the token acts for (extensions §5). */
  createdBy: Schema.Struct({ id: UserId, name: Schema.String })
})

export const TokensApi = HttpApiGroup.make("tokens")
  .annotate(
    OpenApi.Description,
    "Organization API tokens for bearer access (organizations:read / organizations:write)"
  )
  .add(
    HttpApiEndpoint.post("create", "/organizations/:organizationId/tokens")
      .annotate(OpenApi.Summary, "Create an API token (shown once)")
      .setPath(OrganizationPath)
      .setPayload(CreateTokenRequest)
      .addSuccess(CreatedToken)
  )
  .add(
    HttpApiEndpoint.get("list", "/organizations/:organizationId/tokens")
      .annotate(OpenApi.Summary, "The organization's API tokens that are not revoked")
      .setPath(OrganizationPath)
      .setUrlParams(PageQuery)
      .addSuccess(Page(TokenItem))
      .addError(errorDoc(InvalidCursor))
  )
  .add(
    HttpApiEndpoint.del("revoke", "/organizations/:organizationId/tokens/:tokenId")
      .annotate(OpenApi.Summary, "Revoke an API token")
      .setPath(Schema.Struct({ organizationId: OrganizationId, tokenId: TokenId }))
      .addSuccess(Success)
      .addError(errorDoc(TokenNotFound))
  )
  .addError(errorDoc(OrganizationNotFound))
  .addError(errorDoc(RoleNotPermitted))
  .middleware(SessionAuth)

// The endpoints of organization API tokens (extensions §5), group `tokens`: session only.
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { errorDoc, Forbidden, NotFound } from "../../http/ApiError.js"
import { Id, Page, PageQuery, Scope, Success, Timestamp } from "../Domain/Common.js"
import { SessionAuth } from "../Security/Authentication.js"

export const CreateTokenRequest = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(80)),
  scopes: Schema.NonEmptyArray(Scope),
  expiresInDays: Schema.Int.pipe(Schema.between(1, 365))
})

export const CreatedToken = Schema.Struct({
  id: Id,
  name: Schema.String,
  scopes: Schema.Array(Scope),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  /** Shown once: only its hash is kept. */
  token: Schema.String
})

export const TokenItem = Schema.Struct({
  id: Id,
  name: Schema.String,
  scopes: Schema.Array(Scope),
  prefix: Schema.String,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp)
})

const OrganizationPath = Schema.Struct({ organizationId: Id })

export const TokensApi = HttpApiGroup.make("tokens")
  .add(
    HttpApiEndpoint.post("create", "/organizations/:organizationId/tokens")
      .setPath(OrganizationPath)
      .setPayload(CreateTokenRequest)
      .addSuccess(CreatedToken)
  )
  .add(
    HttpApiEndpoint.get("list", "/organizations/:organizationId/tokens")
      .setPath(OrganizationPath)
      .setUrlParams(PageQuery)
      .addSuccess(Page(TokenItem))
  )
  .add(
    HttpApiEndpoint.del("revoke", "/organizations/:organizationId/tokens/:tokenId")
      .setPath(Schema.Struct({ organizationId: Id, tokenId: Id }))
      .addSuccess(Success)
  )
  .addError(errorDoc(NotFound))
  .addError(errorDoc(Forbidden))
  .middleware(SessionAuth)

// Handlers of the `connections` group.
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { pageRequest, Success } from "../Domain/Common.js"
import { FoundationApi } from "../FoundationApi.js"
import { CurrentSession } from "../Security/Principal.js"
import { Connections } from "./Connections.js"

export const ConnectionsHttp = HttpApiBuilder.group(FoundationApi, "connections", (handlers) =>
  Effect.gen(function* () {
    const connections = yield* Connections
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentSession, (session) => connections.listOwn(session, pageRequest(urlParams)))
      )
      .handle("revoke", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) => connections.revokeOwn(session, path.connectionId)).pipe(
          Effect.as(Success.value)
        )
      )
      .handle("organization", ({ path, urlParams }) =>
        Effect.flatMap(CurrentSession, (session) =>
          connections.listForOrganization(session, path.organizationId, pageRequest(urlParams))
        )
      )
      .handle("revokeForOrganization", ({ path }) =>
        Effect.flatMap(CurrentSession, (session) =>
          connections.revokeForOrganization(session, path.organizationId, path.connectionId)
        ).pipe(Effect.as(Success.value))
      )
  })
)

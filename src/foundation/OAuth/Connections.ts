// Connections (extensions §8): a person sees and ends the grants they approved; an organization's
// owners and admins see and end every grant on it (a member 403, anyone else 404, as for the
// organization's other lists).
import * as Effect from "effect/Effect"
import { ProtectedResources } from "../../http/ProtectedResources.js"
import { PageCursors } from "../Database/KeysetPage.js"
import type { PageRequest } from "../Domain/Common.js"
import { Connection, OrganizationConnection } from "../Domain/Connection.js"
import { ConnectionNotFound } from "../Domain/Errors.js"
import type { GrantId, OrganizationId } from "../Domain/Ids.js"
import { managers, OrganizationAccess } from "../Organizations/OrganizationAccess.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { traced } from "../Traced.js"
import { type ConnectionRow, GrantRepo } from "./GrantRepo.js"

export class Connections extends Effect.Service<Connections>()("Connections", {
  effect: Effect.gen(function* () {
    const grants = yield* GrantRepo
    const access = yield* OrganizationAccess
    const cursors = yield* PageCursors
    const resources = yield* ProtectedResources

    const connectionOf = (row: ConnectionRow) =>
      new Connection(
        {
          id: row.id,
          clientId: row.clientId,
          clientName: row.clientName,
          organization: { id: row.organizationId, name: row.organizationName },
          // What the grant lets the app do at its resource now: a grant of the resource's former
          // scopes shows the scopes they stand for, as its tokens are read and refreshed.
          scopes: resources.byResource(row.resource)?.currentScopes(row.scopes) ?? row.scopes,
          resource: row.resource,
          createdAt: row.createdAt,
          lastUsedAt: row.lastUsedAt
        },
        // Rows were decoded on their way out of the database; the answer is encoded against the schema.
        true
      )

    const organizationConnectionOf = (row: ConnectionRow) =>
      new OrganizationConnection(
        { ...connectionOf(row), user: { id: row.userId, name: row.userName, email: row.userEmail } },
        true
      )

    /** The person's live connections, newest first. */
    const listOwn = traced("Connections.listOwn", (session: SessionPrincipal, page: PageRequest) =>
      cursors.readPage(
        `connections:user:${session.userId}`,
        page,
        (after, limit) => grants.pageForUser(session.userId, after, limit),
        connectionOf
      )
    )

    /** Ends one of the person's own connections (404 for any other). */
    const revokeOwn = traced("Connections.revokeOwn", (session: SessionPrincipal, connectionId: GrantId) =>
      Effect.flatMap(grants.revokeOwn(connectionId, session.userId), (revoked) =>
        revoked ? Effect.void : Effect.fail(new ConnectionNotFound())
      )
    )

    /** Every live connection on the organization, with its person; owners and admins only. */
    const listForOrganization = traced(
      "Connections.listForOrganization",
      (session: SessionPrincipal, organizationId: OrganizationId, page: PageRequest) =>
        Effect.zipRight(
          access.requireRole(session, organizationId, managers),
          cursors.readPage(
            `connections:organization:${organizationId}`,
            page,
            (after, limit) => grants.pageForOrganization(organizationId, after, limit),
            organizationConnectionOf
          )
        )
    )

    /** Ends a connection on the organization; owners and admins only (404 for one not on it). */
    const revokeForOrganization = traced(
      "Connections.revokeForOrganization",
      (session: SessionPrincipal, organizationId: OrganizationId, connectionId: GrantId) =>
        Effect.zipRight(
          access.requireRole(session, organizationId, managers),
          Effect.flatMap(grants.revokeInOrganization(connectionId, organizationId), (revoked) =>
            revoked ? Effect.void : Effect.fail(new ConnectionNotFound())
          )
        )
    )

    return { listOwn, revokeOwn, listForOrganization, revokeForOrganization }
  })
}) {}

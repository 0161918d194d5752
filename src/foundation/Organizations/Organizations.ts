// The rules of organizations implemented so far: creation (extensions §2) and the caller's list.
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { Conflict } from "../../http/ApiError.js"
import { Sessions } from "../Accounts/Sessions.js"
import { isUniqueViolation } from "../Database/Rows.js"
import type { SessionPrincipal } from "../Security/Principal.js"
import { newId, randomSecret } from "../Security/Secrets.js"
import { OrganizationRepo } from "./OrganizationRepo.js"

/** Lowercase letters, digits and single dashes, at most 60 characters; "organization" when nothing is left. */
export const slugFromName = (name: string): string => {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "")
  return slug === "" ? "organization" : slug
}

const slugTaken = () => new Conflict({ message: "This slug is already in use." })

export class Organizations extends Effect.Service<Organizations>()("Organizations", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* OrganizationRepo
    const sessions = yield* Sessions

    const insertWithOwner = (session: SessionPrincipal, name: string, slug: string) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const organization = yield* repo.insert({ id: newId("org"), name, slug })
          yield* repo.insertMember({
            id: newId("mem"),
            organizationId: organization.id,
            userId: session.userId,
            role: "owner"
          })
          yield* sessions.setActiveOrganization(session.sessionId, organization.id)
          return organization
        })
      )

    /**
     * The creator becomes its owner and the organization becomes the session's active one. A slug
     * given by the caller must be free (409); a derived one gets a random suffix when taken.
     */
    const create = (
      session: SessionPrincipal,
      input: { readonly name: string; readonly slug?: string | undefined }
    ) => {
      if (input.slug !== undefined) {
        return insertWithOwner(session, input.name, input.slug).pipe(
          Effect.catchIf(
            (error) => isUniqueViolation(error, "organizations_slug_key"),
            () => Effect.fail(slugTaken())
          )
        )
      }
      const base = slugFromName(input.name)
      const attempt = (n: number): ReturnType<typeof insertWithOwner> =>
        insertWithOwner(
          session,
          input.name,
          n === 0
            ? base
            : `${base}-${randomSecret(4)
                .toLowerCase()
                .replace(/[^a-z0-9]/g, "0")}`
        ).pipe(
          Effect.catchIf(
            (error) => n < 3 && isUniqueViolation(error, "organizations_slug_key"),
            () => attempt(n + 1)
          )
        )
      return attempt(0).pipe(
        Effect.catchIf(
          (error) => isUniqueViolation(error, "organizations_slug_key"),
          () => Effect.fail(slugTaken())
        )
      )
    }

    return { create, listForUser: repo.listForUser }
  })
}) {}

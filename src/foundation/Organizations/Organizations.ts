// The rules of organizations: creation (extensions §2), reading, the optimistic-concurrency update
// (base contract §4) and switching the session's active organization.
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Conflict } from "../../http/ApiError.js"
import { Sessions } from "../Accounts/Sessions.js"
import { isUniqueViolation } from "../Database/Rows.js"
import type { Principal, SessionPrincipal } from "../Security/Principal.js"
import { newId, randomSecret } from "../Security/Secrets.js"
import type { UpdateOrganizationRequest } from "./Api.js"
import { anyRole, managers, OrganizationAccess, organizationNotFound } from "./OrganizationAccess.js"
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

const staleVersion = () =>
  new Conflict({
    message: "This organization changed since the version you sent. Read it again and retry with its version."
  })

/** An omitted detail is kept (undefined), an empty string clears it (null). */
const detail = (value: string | undefined): string | null | undefined => (value === "" ? null : value)

export class Organizations extends Effect.Service<Organizations>()("Organizations", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* OrganizationRepo
    const sessions = yield* Sessions
    const access = yield* OrganizationAccess

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

    /** Any member's session, or a token of this organization with `organizations:read`. */
    const get = (principal: Principal, organizationId: string) =>
      Effect.gen(function* () {
        yield* access.authorize(principal, organizationId, "organizations:read", anyRole)
        const organization = yield* repo.findById(organizationId)
        if (Option.isNone(organization)) return yield* organizationNotFound()
        return organization.value
      })

    /**
     * An owner's or admin's session, or a token with `organizations:write`. The version must be the
     * current one (409 otherwise, which also makes replaying a completed write safe). The row is
     * locked before the role is checked, so a concurrent demotion cannot slip in between, and
     * concurrent writers with one version queue on the lock: the first wins, the rest see 409.
     */
    const update = (principal: Principal, organizationId: string, input: UpdateOrganizationRequest) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const current = yield* repo.lockForChange(organizationId)
          yield* access.authorize(principal, organizationId, "organizations:write", managers)
          if (Option.isNone(current)) return yield* organizationNotFound()
          if (current.value !== input.version) return yield* staleVersion()
          const updated = yield* repo.update(organizationId, input.version, {
            name: input.name,
            companyName: detail(input.companyName),
            website: detail(input.website),
            phone: detail(input.phone),
            address: detail(input.address)
          })
          if (Option.isNone(updated)) return yield* staleVersion()
          return updated.value
        })
      )

    /** Makes one of the caller's organizations the session's active one (404 for any other). */
    const switchTo = (session: SessionPrincipal, organizationId: string) =>
      Effect.gen(function* () {
        yield* access.memberRole(session, organizationId)
        yield* sessions.setActiveOrganization(session.sessionId, organizationId)
      })

    return { create, get, update, switchTo, listForUser: repo.listForUser }
  })
}) {}

// SQL for organizations and memberships. Rows are decoded by the domain's schemas; a taken slug and
// a second membership come back as `SlugTaken` and `AlreadyMember`, everything else through the
// database edge.
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { onUniqueViolation, repositoryCall } from "../Database/DatabaseEdge.js"
import { rememberedRows } from "../Database/RememberedRows.js"
import { UntracedStatements } from "../Database/UntracedStatements.js"
import { Role } from "../Domain/Common.js"
import { AlreadyMember, SlugTaken } from "../Domain/Errors.js"
import { MemberId, OrganizationId, UserId } from "../Domain/Ids.js"
import { Organization, OrganizationWithRole, type Slug } from "../Domain/Organization.js"

/** The caller's membership: its id (the `memberId` of member paths) and role. */
export const Membership = Schema.Struct({ id: MemberId, role: Role })
export type Membership = typeof Membership.Type

/** Ids, names and roles only: what the credential context shows. */
export const OrganizationSummary = Schema.Struct({ id: OrganizationId, name: Schema.String, role: Role })
export type OrganizationSummary = typeof OrganizationSummary.Type

/** What organizations.update writes: `undefined` keeps a detail, `null` clears it. */
export interface OrganizationChanges {
  readonly name: string
  readonly companyName: string | null | undefined
  readonly website: string | null | undefined
  readonly phone: string | null | undefined
  readonly address: string | null | undefined
}

const MembershipKey = Schema.Struct({ userId: UserId, organizationId: OrganizationId })

export class OrganizationRepo extends Effect.Service<OrganizationRepo>()("OrganizationRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const statements = yield* UntracedStatements
    const columns = sql.literal(
      "o.id, o.name, o.slug, o.company_name, o.website, o.phone, o.address, o.version"
    )

    const organizationRows = rememberedRows(Organization, "id")
    const findById = (id: OrganizationId) =>
      statements.first(sql`SELECT ${columns} FROM organizations o WHERE o.id = ${id}`, organizationRows)

    const listForUser = SqlSchema.findAll({
      Request: UserId,
      Result: OrganizationWithRole,
      execute: (userId) => sql`
        SELECT ${columns}, m.role FROM members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ${userId} ORDER BY m.created_at, o.id`
    })

    const summariesForUser = SqlSchema.findAll({
      Request: UserId,
      Result: OrganizationSummary,
      execute: (userId) => sql`
        SELECT o.id, o.name, m.role FROM members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = ${userId} ORDER BY m.created_at, o.id`
    })

    const nameOf = SqlSchema.findOne({
      Request: OrganizationId,
      Result: Schema.Struct({ name: Schema.String }),
      execute: (id) => sql`SELECT name FROM organizations WHERE id = ${id}`
    })

    const membershipOf = SqlSchema.findOne({
      Request: MembershipKey,
      Result: Membership,
      execute: ({ userId, organizationId }) =>
        sql`SELECT id, role FROM members WHERE user_id = ${userId} AND organization_id = ${organizationId}`
    })

    const lockMembership = SqlSchema.findOne({
      Request: MembershipKey,
      Result: Membership,
      execute: ({ userId, organizationId }) => sql`
        SELECT id, role FROM members WHERE user_id = ${userId} AND organization_id = ${organizationId} FOR SHARE`
    })

    const lockMember = SqlSchema.findOne({
      Request: MemberId,
      Result: Membership,
      execute: (id) => sql`SELECT id, role FROM members WHERE id = ${id} FOR SHARE`
    })

    const lockForChange = SqlSchema.findOne({
      Request: OrganizationId,
      Result: Schema.Struct({ version: Organization.fields.version }),
      execute: (id) => sql`SELECT version FROM organizations WHERE id = ${id} FOR NO KEY UPDATE`
    })

    return {
      findById: repositoryCall("OrganizationRepo.findById", findById),

      /** The user's organizations with their role, in the order they joined them. */
      listForUser: repositoryCall("OrganizationRepo.listForUser", listForUser),

      summariesForUser: repositoryCall("OrganizationRepo.summariesForUser", summariesForUser),

      nameOf: repositoryCall("OrganizationRepo.nameOf", (id: OrganizationId) =>
        Effect.map(
          nameOf(id),
          Option.map((row) => row.name)
        )
      ),

      /** Fails with `SlugTaken` when the slug is taken. */
      insert: repositoryCall(
        "OrganizationRepo.insert",
        (organization: { readonly id: OrganizationId; readonly name: string; readonly slug: Slug }) =>
          SqlSchema.single({
            Request: Schema.Void,
            Result: Organization,
            execute: () => sql`
              INSERT INTO organizations AS o (id, name, slug) VALUES (${organization.id}, ${organization.name}, ${organization.slug})
              RETURNING ${columns}`
          })(undefined).pipe(
            Effect.catchTag("NoSuchElementException", (error) => Effect.die(error)),
            onUniqueViolation("organizations_slug_key", () => new SlugTaken())
          )
      ),

      /** Fails with `AlreadyMember` when the user is a member already. */
      insertMember: repositoryCall(
        "OrganizationRepo.insertMember",
        (member: {
          readonly id: MemberId
          readonly organizationId: OrganizationId
          readonly userId: UserId
          readonly role: Role
        }) =>
          sql`
            INSERT INTO members (id, organization_id, user_id, role)
            VALUES (${member.id}, ${member.organizationId}, ${member.userId}, ${member.role})`.pipe(
            Effect.asVoid,
            onUniqueViolation("members_one_per_user", () => new AlreadyMember())
          )
      ),

      /** The user's membership of the organization, or none when not a member. */
      membershipOf: repositoryCall(
        "OrganizationRepo.membershipOf",
        (userId: UserId, organizationId: OrganizationId) => membershipOf({ userId, organizationId })
      ),

      /**
       * The user's membership of the organization, locked (`FOR SHARE`) until the transaction ends,
       * or none when not a member. What a grant is made or used with is read this way: a removal
       * (or a change of role) waits until that transaction has committed, and one under way is
       * waited for, after which the row is read as the removal left it (gone).
       */
      lockMembership: repositoryCall(
        "OrganizationRepo.lockMembership",
        (userId: UserId, organizationId: OrganizationId) => lockMembership({ userId, organizationId })
      ),

      /** The membership with this id, locked as `lockMembership` locks it; none when it is gone. */
      lockMember: repositoryCall("OrganizationRepo.lockMember", lockMember),

      /**
       * Locks the organization's row until the transaction ends and returns its version (none when
       * it does not exist). Every transaction that checks a role and then changes the organization,
       * its members or its invitations takes this lock first, so the check still holds when the
       * write commits (two owners demoting each other cannot leave none) and locks are always taken
       * in the same order. `NO KEY UPDATE` leaves foreign-key checks (new members) unblocked.
       */
      lockForChange: repositoryCall("OrganizationRepo.lockForChange", (organizationId: OrganizationId) =>
        Effect.map(
          lockForChange(organizationId),
          Option.map((row) => row.version)
        )
      ),

      /** Applies `changes` if `version` is still current and adds 1 to it; none otherwise. */
      update: repositoryCall(
        "OrganizationRepo.update",
        (organizationId: OrganizationId, version: number, changes: OrganizationChanges) => {
          const detail = (column: string, value: string | null | undefined) =>
            value === undefined ? [] : [sql`${sql(column)} = ${value}`]
          const assignments = [
            sql`name = ${changes.name}`,
            ...detail("company_name", changes.companyName),
            ...detail("website", changes.website),
            ...detail("phone", changes.phone),
            ...detail("address", changes.address),
            sql`version = o.version + 1`,
            sql`updated_at = now()`
          ]
          return SqlSchema.findOne({
            Request: Schema.Void,
            Result: Organization,
            execute: () => sql`
              UPDATE organizations AS o SET ${sql.csv(assignments)}
              WHERE o.id = ${organizationId} AND o.version = ${version}
              RETURNING ${columns}`
          })(undefined)
        }
      )
    }
  })
}) {}

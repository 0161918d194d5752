// The notebook's bounds on PostgreSQL (catalog-extensions §12): 500 notes an organization and 30 note
// writes a minute a connection, each refused as a tool error saying what was exceeded, with nothing
// lost or overwritten; two saves racing for the last place leave 500 notes, not 501.
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { postgresUnavailable } from "../foundation/support/Backends.js"
import { createOrganization, signUpVerified, sqlQuery } from "../foundation/support/FoundationClient.js"
import { oauthWorld } from "../foundation/support/OAuthFlow.js"
import { inOneWindow } from "../foundation/support/RateWindows.js"
import { describeNeeding } from "../support/Needs.js"
import { agentToken, callTool, mcpClient, postgresAgentServer, textOf } from "./support/AgentServer.js"

const writeScopes = "notes:read notes:write"

const noteCount = (organizationId: string) =>
  Effect.map(
    sqlQuery("SELECT count(*)::int AS count FROM notes WHERE organization_id = $1", [organizationId]),
    (rows) => Number(rows[0]?.count)
  )

/** Fills the organization's notebook to `count` notes directly (bypassing the write budget). */
const prefill = (organizationId: string, userId: string, count: number) =>
  sqlQuery(
    `INSERT INTO notes (id, organization_id, user_id, client_id, episode_slug, text)
     SELECT 'note_prefill_' || $1 || '_' || n, $1, $2, 'prefill', '4', 'Prefilled ' || n
     FROM generate_series(1, $3::int) AS n`,
    [organizationId, userId, count]
  )

describeNeeding(postgresUnavailable)("the notebook's bounds on PostgreSQL", () => {
  layer(postgresAgentServer(), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.scoped(
      "at 499 notes two concurrent saves leave 500, the 501st is refused saying so, and no note is lost or changed",
      () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const owner = yield* signUpVerified("filler")
          const organization = yield* createOrganization(owner, "Full Org")
          yield* prefill(organization.id, owner.userId, 499)
          const before = yield* sqlQuery(
            "SELECT id, text FROM notes WHERE organization_id = $1 ORDER BY id",
            [organization.id]
          )
          const first = yield* agentToken(world, owner, organization.id, writeScopes)
          const second = yield* agentToken(world, owner, organization.id, writeScopes)
          const one = yield* mcpClient(first.accessToken)
          const two = yield* mcpClient(second.accessToken)
          const racing = yield* Effect.all(
            [
              callTool(one, "save_note", { slug: "4", text: "Racer one." }),
              callTool(two, "save_note", { slug: "4", text: "Racer two." })
            ],
            { concurrency: "unbounded" }
          )
          expect(racing.map((result) => result.isError ?? false).sort()).toEqual([false, true])
          const refused = racing.find((result) => result.isError === true)
          expect(textOf(refused ?? { content: [] })).toContain("at most 500 notes")
          expect(yield* noteCount(organization.id)).toBe(500)

          const extra = yield* callTool(one, "save_note", { slug: "3", text: "One too many." })
          expect(extra.isError).toBe(true)
          expect(textOf(extra)).toContain("at most 500 notes")
          expect(textOf(extra)).toContain("Nothing was saved")
          expect(yield* noteCount(organization.id)).toBe(500)
          const after = yield* sqlQuery(
            "SELECT id, text FROM notes WHERE organization_id = $1 AND client_id = 'prefill' ORDER BY id",
            [organization.id]
          )
          expect(after).toEqual(before)
        })
    )

    it.scoped(
      "the 31st note write of a connection in a minute is refused saying so, and nothing is written",
      () =>
        Effect.gen(function* () {
          const world = yield* oauthWorld
          const owner = yield* signUpVerified("hasty")
          // Counted per connection: each run with a connection of its own, in an organization of its own.
          yield* inOneWindow(() =>
            Effect.gen(function* () {
              const organization = yield* createOrganization(owner, "Hasty Org")
              const grant = yield* agentToken(world, owner, organization.id, writeScopes)
              const client = yield* mcpClient(grant.accessToken)
              for (let index = 0; index < 30; index++) {
                const saved = yield* callTool(client, "save_note", { slug: "2", text: `Write ${index}` })
                expect(saved.isError ?? false, `write ${index}`).toBe(false)
              }
              const refused = yield* callTool(client, "save_note", { slug: "2", text: "Write 30" })
              expect(refused.isError).toBe(true)
              expect(textOf(refused)).toContain("at most 30 notes a minute")
              expect(yield* noteCount(organization.id)).toBe(30)
              const texts = yield* sqlQuery("SELECT text FROM notes WHERE organization_id = $1", [
                organization.id
              ])
              expect(texts.map((row) => row.text)).not.toContain("Write 30")
              // Another connection of the same organization has its own budget.
              const other = yield* agentToken(world, owner, organization.id, writeScopes)
              const fresh = yield* mcpClient(other.accessToken)
              expect(
                (yield* callTool(fresh, "save_note", { slug: "2", text: "Fresh" })).isError ?? false
              ).toBe(false)
            })
          )
        })
    )
  })
})

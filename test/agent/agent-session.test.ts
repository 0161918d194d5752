// `/mcp/agent` through the real server, on PGlite and PostgreSQL: the OAuth challenge and RFC 9728
// metadata, the tools and their annotations (the catalog's four are the same definitions as /mcp's),
// the notebook as an agent and as people see it, scopes per tool (the 403 scope challenge before a
// call runs), who may delete which note, grants of the old scopes, unknown episodes and paragraphs,
// tokens of other resources refused both ways, revoked connections, and the Host/Origin rules.

import { describe, expect, it, layer } from "@effect/vitest"
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server"
import * as Effect from "effect/Effect"
import { agentScopes } from "../../src/agent/AgentResource.js"
import { catalogViewUri } from "../../src/catalog/mcp/CatalogView.js"
import { backends, hasPostgres, postgresUnavailable } from "../foundation/support/Backends.js"
import {
  COOKIE,
  call,
  createOrganization,
  createToken,
  join,
  PUBLIC_ORIGIN,
  signUpVerified,
  sqlQuery
} from "../foundation/support/FoundationClient.js"
import {
  authorizationUrl,
  callApi,
  codeFlow,
  consentPageFor,
  decide,
  exchange,
  oauthWorld,
  offeredOrganizations,
  refresh,
  registerPublic
} from "../foundation/support/OAuthFlow.js"
import { appsCapabilities, clientKinds, type McpSession } from "../support/McpClients.js"
import { describeNeeding } from "../support/Needs.js"
import { request } from "../support/TestServer.js"
import {
  AGENT_METADATA,
  AGENT_RESOURCE,
  agentServer,
  agentToken,
  callTool,
  mcpClient,
  postgresAgentServer,
  rawMcp,
  textOf
} from "./support/AgentServer.js"

interface NoteJson {
  readonly id: string
  readonly organizationId: string
  readonly episodeSlug: string
  readonly paragraphIndex: number | null
  readonly text: string
  readonly author: { readonly id: string; readonly name: string }
  readonly clientId: string
  readonly createdAt: string
}
interface NotePageJson {
  readonly items: ReadonlyArray<NoteJson>
  readonly nextCursor: string | null
}

const toolsOf = (session: McpSession) => Effect.promise(() => session.listTools())

/** An owner with an organization, and a write grant on it for /mcp/agent. */
const ownerWithGrant = (label: string, scope = "notes:read notes:write") =>
  Effect.gen(function* () {
    const world = yield* oauthWorld
    const owner = yield* signUpVerified(label)
    const organization = yield* createOrganization(owner, `${label} Org`)
    const grant = yield* agentToken(world, owner, organization.id, scope)
    return { world, owner, organization, grant }
  })

for (const backend of backends) {
  describeNeeding(backend.missing)(`the agent session on ${backend.name}`, () => {
    layer(agentServer(backend.database), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect(
        "without a valid token it answers 401 pointing at its RFC 9728 metadata, which names the foundation as authorization server",
        () =>
          Effect.gen(function* () {
            const none = yield* rawMcp({})
            expect(none.status).toBe(401)
            expect(none.headers.get("www-authenticate")).toBe(
              `Bearer resource_metadata="${AGENT_METADATA}", scope="notes:read notes:write"`
            )
            expect(JSON.parse(none.text)).toMatchObject({ defined: true, code: "UNAUTHORIZED", status: 401 })
            const bogus = yield* rawMcp({ authorization: "Bearer foa_not-a-token" })
            expect(bogus.status).toBe(401)
            expect(bogus.headers.get("www-authenticate")).toContain(`resource_metadata="${AGENT_METADATA}"`)
            expect(bogus.headers.get("www-authenticate")).toContain('error="invalid_token"')
            expect(bogus.headers.get("www-authenticate")).toContain('scope="notes:read notes:write"')
            const metadata = yield* request("/.well-known/oauth-protected-resource/mcp/agent")
            expect(metadata.status).toBe(200)
            expect(metadata.json).toMatchObject({
              resource: AGENT_RESOURCE,
              authorization_servers: [PUBLIC_ORIGIN],
              scopes_supported: ["notes:read", "notes:write"],
              bearer_methods_supported: ["header"]
            })
          })
      )

      it.scoped(
        "lists the catalog's four tools exactly as /mcp does and the notebook's four with annotations that tell the truth, the same to every client and revision",
        () =>
          Effect.gen(function* () {
            const { grant } = yield* ownerWithGrant("lister")
            const client = yield* mcpClient(grant.accessToken)
            const tools = yield* toolsOf(client)
            for (const kind of clientKinds) {
              const other = yield* mcpClient(grant.accessToken, kind)
              expect(yield* toolsOf(other), kind).toEqual(tools)
              const listed = yield* callTool(other, "list_notes")
              expect(listed.isError ?? false, kind).toBe(false)
              expect(listed.structuredContent, kind).toEqual({ items: [], nextCursor: null })
            }
            const byName = new Map(tools.map((tool) => [tool.name, tool]))
            expect([...byName.keys()].sort()).toEqual(
              [
                "delete_note",
                "get_episode",
                "get_note",
                "get_transcript",
                "list_notes",
                "save_note",
                "search_episodes",
                "search_transcripts"
              ].sort()
            )
            const publicList = yield* request("/mcp", {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
            })
            const publicTools = (publicList.json as { result: { tools: ReadonlyArray<{ name: string }> } })
              .result.tools
            for (const tool of publicTools) expect(byName.get(tool.name)).toEqual(tool)
            for (const tool of tools) {
              expect(tool.outputSchema?.type, tool.name).toBe("object")
              expect(tool.annotations?.openWorldHint, tool.name).toBe(false)
            }
            expect(byName.get("save_note")?.annotations).toMatchObject({
              readOnlyHint: false,
              destructiveHint: false,
              idempotentHint: false
            })
            expect(byName.get("delete_note")?.annotations).toMatchObject({
              readOnlyHint: false,
              destructiveHint: true,
              idempotentHint: true
            })
            for (const name of ["list_notes", "get_note"]) {
              expect(byName.get(name)?.annotations, name).toMatchObject({
                readOnlyHint: true,
                idempotentHint: true
              })
            }
          })
      )

      it.scoped(
        "to a client that shows MCP Apps, the catalog's tools name the same view as /mcp, which a read grant reads; the notebook's tools name none",
        () =>
          Effect.gen(function* () {
            const { grant } = yield* ownerWithGrant("viewer", "notes:read")
            const client = yield* mcpClient(grant.accessToken, "v2 client, 2026-07-28", appsCapabilities)
            const tools = yield* toolsOf(client)
            const named = tools.filter((tool) => tool._meta !== undefined).map((tool) => tool.name)
            expect(named.sort()).toEqual(["get_episode", "search_episodes", "search_transcripts"])
            for (const tool of tools.filter((tool) => tool._meta !== undefined)) {
              expect(tool._meta?.ui, tool.name).toEqual({ resourceUri: catalogViewUri })
            }
            const { _meta, ...plain } = tools.find((tool) => tool.name === "get_episode") ?? { name: "" }
            const without = yield* toolsOf(yield* mcpClient(grant.accessToken))
            expect(without.find((tool) => tool.name === "get_episode")).toEqual(plain)
            const read = yield* Effect.promise(() => client.readResource(catalogViewUri))
            expect(read.contents[0]?.mimeType).toBe(RESOURCE_MIME_TYPE)
            expect(read.contents[0]?._meta).toMatchObject({ ui: { csp: { connectDomains: [] } } })
            const [contents] = read.contents
            expect(contents !== undefined && "text" in contents ? contents.text : "").toMatch(
              /^<!doctype html>/
            )
          })
      )

      it.scoped(
        "a note saved by an agent shows in list_notes, get_note and notes.list for the organization's members, not for anyone else; delete_note removes it",
        () =>
          Effect.gen(function* () {
            const { owner, organization, grant } = yield* ownerWithGrant("notetaker")
            const member = yield* join(owner, organization.id, "member")
            const outsider = yield* signUpVerified("outsider")
            yield* createOrganization(outsider, "Elsewhere")
            const client = yield* mcpClient(grant.accessToken)

            const saved = yield* callTool(client, "save_note", {
              slug: "4",
              paragraph_index: 0,
              text: "The fog signal history is worth a follow-up."
            })
            expect(saved.isError ?? false).toBe(false)
            const note = saved.structuredContent as unknown as NoteJson
            expect(note).toMatchObject({
              organizationId: organization.id,
              episodeSlug: "4",
              paragraphIndex: 0,
              text: "The fog signal history is worth a follow-up.",
              author: { id: owner.userId, name: "notetaker" },
              clientId: grant.clientId
            })
            expect(textOf(saved)).toContain("The fog signal history")
            const onEpisode = yield* callTool(client, "save_note", { slug: 3, text: "Logbooks." })
            expect((onEpisode.structuredContent as unknown as NoteJson).paragraphIndex).toBeNull()

            const listed = yield* callTool(client, "list_notes", { limit: 1 })
            const firstPage = listed.structuredContent as unknown as NotePageJson
            expect(firstPage.items.map((item) => item.id)).toEqual([note.id])
            expect(firstPage.nextCursor).not.toBeNull()
            const second = yield* callTool(client, "list_notes", { cursor: firstPage.nextCursor, limit: 1 })
            expect((second.structuredContent as unknown as NotePageJson).items).toHaveLength(1)
            const got = yield* callTool(client, "get_note", { id: note.id })
            expect(got.structuredContent).toEqual(note)

            const seenByMember = yield* call(`/organizations/${organization.id}/notes`, {
              session: member.account.session
            })
            expect(seenByMember.status).toBe(200)
            expect((seenByMember.json as NotePageJson).items.map((item) => item.id)).toContain(note.id)
            expect((seenByMember.json as NotePageJson).items[0]).toEqual(note)
            const seenByOutsider = yield* call(`/organizations/${organization.id}/notes`, {
              session: outsider.session
            })
            expect(seenByOutsider.status).toBe(404)
            const apiToken = yield* createToken(owner, organization.id, ["organizations:read"])
            const byToken = yield* call(`/organizations/${organization.id}/notes`, { bearer: apiToken.token })
            expect(byToken.status).toBe(200)

            // A member may not delete someone else's note; the owner's agent may.
            const byMember = yield* call(`/organizations/${organization.id}/notes/${note.id}`, {
              method: "DELETE",
              session: member.account.session
            })
            expect(byMember.status).toBe(403)
            const deleted = yield* callTool(client, "delete_note", { id: note.id })
            expect(deleted.structuredContent).toEqual({ id: note.id, deleted: true })
            const again = yield* callTool(client, "get_note", { id: note.id })
            expect(again.isError).toBe(true)
            expect(textOf(again)).toContain(note.id)
            const byOwner = yield* call(
              `/organizations/${organization.id}/notes/${(onEpisode.structuredContent as unknown as NoteJson).id}`,
              { method: "DELETE", session: owner.session }
            )
            expect(byOwner.status).toBe(200)
            const empty = yield* call(`/organizations/${organization.id}/notes`, { session: owner.session })
            expect((empty.json as NotePageJson).items).toEqual([])
          })
      )

      it.scoped(
        "a read-only grant reads the notebook, but save_note and delete_note are refused with the 403 scope challenge before they run, in every revision",
        () =>
          Effect.gen(function* () {
            const { world, owner, organization, grant } = yield* ownerWithGrant("writer")
            const reader = yield* agentToken(world, owner, organization.id, "notes:read")
            const writing = yield* mcpClient(grant.accessToken)
            const kept = (yield* callTool(writing, "save_note", { slug: "2", text: "Kept." }))
              .structuredContent as unknown as NoteJson
            const challenge = `Bearer error="insufficient_scope", error_description="save_note needs the notes:write scope", scope="notes:read notes:write", resource_metadata="${AGENT_METADATA}"`
            // Both eras' requests: a plain 2025 request and a 2026-07-28 one with its envelope and headers.
            const legacy = yield* rawMcp(
              { authorization: `Bearer ${reader.accessToken}` },
              {
                body: {
                  jsonrpc: "2.0",
                  id: 7,
                  method: "tools/call",
                  params: { name: "save_note", arguments: { slug: "2", text: "Not saved." } }
                }
              }
            )
            expect(legacy.status).toBe(403)
            expect(legacy.headers.get("www-authenticate")).toBe(challenge)
            expect(JSON.parse(legacy.text)).toMatchObject({ error: "insufficient_scope" })
            for (const kind of clientKinds) {
              const client = yield* mcpClient(reader.accessToken, kind)
              const refused = yield* Effect.promise(() =>
                client.callTool("save_note", { slug: "2", text: "Not saved." }).then(
                  (result) => result,
                  (error: unknown) => error
                )
              )
              // The clients without an OAuth provider cannot step up: they report the 403.
              expect(refused, kind).toBeInstanceOf(Error)
              expect(String(refused), kind).toMatch(/403|insufficient.scope/i)
              const notDeleted = yield* Effect.promise(() =>
                client.callTool("delete_note", { id: kept.id }).then(
                  (result) => result,
                  (error: unknown) => error
                )
              )
              expect(notDeleted, kind).toBeInstanceOf(Error)
              const listed = (yield* callTool(client, "list_notes"))
                .structuredContent as unknown as NotePageJson
              expect(
                listed.items.map((item) => item.text),
                kind
              ).toEqual(["Kept."])
              const read = yield* callTool(client, "get_episode", { slug: "2" })
              expect(read.isError ?? false, kind).toBe(false)
            }
          })
      )

      it.scoped(
        "a write-only grant may write, and the catalog's and notebook's reading tools ask for notes:read",
        () =>
          Effect.gen(function* () {
            const { world, owner, organization } = yield* ownerWithGrant("scribe", "notes:read")
            const writer = yield* agentToken(world, owner, organization.id, "notes:write")
            const reading = yield* rawMcp(
              { authorization: `Bearer ${writer.accessToken}` },
              {
                body: {
                  jsonrpc: "2.0",
                  id: 1,
                  method: "tools/call",
                  params: { name: "get_episode", arguments: { slug: "2" } }
                }
              }
            )
            expect(reading.status).toBe(403)
            expect(reading.headers.get("www-authenticate")).toContain('scope="notes:read"')
            const client = yield* mcpClient(writer.accessToken)
            const saved = yield* callTool(client, "save_note", { slug: "2", text: "Written blind." })
            expect(saved.isError ?? false).toBe(false)
          })
      )

      it.scoped(
        "every member may grant both scopes and save notes; a member deletes only the notes they saved, an admin and the owner any",
        () =>
          Effect.gen(function* () {
            const { world, owner, organization, grant } = yield* ownerWithGrant("keeper")
            const member = yield* join(owner, organization.id, "member", "plain member")
            const other = yield* join(owner, organization.id, "member", "other member")
            const admin = yield* join(owner, organization.id, "admin", "an admin")
            const memberGrant = yield* agentToken(
              world,
              member.account,
              organization.id,
              "notes:read notes:write"
            )
            const otherGrant = yield* agentToken(
              world,
              other.account,
              organization.id,
              "notes:read notes:write"
            )
            const adminGrant = yield* agentToken(
              world,
              admin.account,
              organization.id,
              "notes:read notes:write"
            )
            const byMember = yield* mcpClient(memberGrant.accessToken)
            const byOther = yield* mcpClient(otherGrant.accessToken)
            const byAdmin = yield* mcpClient(adminGrant.accessToken)
            const byOwner = yield* mcpClient(grant.accessToken)
            const save = (client: McpSession, text: string) =>
              Effect.map(callTool(client, "save_note", { slug: "3", text }), (result) => {
                expect(result.isError ?? false, text).toBe(false)
                return result.structuredContent as unknown as NoteJson
              })
            const mine = yield* save(byMember, "The member's own.")
            expect(mine.author.id).toBe(member.account.userId)
            const theirs = yield* save(byOther, "Another member's.")
            const owners = yield* save(byOwner, "The owner's.")

            const notMine = yield* callTool(byMember, "delete_note", { id: theirs.id })
            expect(notMine.isError).toBe(true)
            expect(textOf(notMine)).toContain("Only owners, admins and the note's author may delete a note.")
            const notOwners = yield* callTool(byMember, "delete_note", { id: owners.id })
            expect(notOwners.isError).toBe(true)
            const own = yield* callTool(byMember, "delete_note", { id: mine.id })
            expect(own.structuredContent).toEqual({ id: mine.id, deleted: true })
            const byAdminDeleted = yield* callTool(byAdmin, "delete_note", { id: theirs.id })
            expect(byAdminDeleted.structuredContent).toEqual({ id: theirs.id, deleted: true })
            const left = (yield* callTool(byOwner, "list_notes")).structuredContent as unknown as NotePageJson
            expect(left.items.map((item) => item.text)).toEqual(["The owner's."])
          })
      )

      it.effect(
        "a plain member's consent page describes the notebook's scopes in their words, offers Allow, and grants what stays ticked",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("consent owner")
            const organization = yield* createOrganization(owner, "Consent Org")
            const member = (yield* join(owner, organization.id, "member", "consent member")).account
            const client = yield* registerPublic(world, "Notebook agent")
            const extra = { resource: AGENT_RESOURCE, scope: "notes:read notes:write" }
            const start = yield* authorizationUrl(world, client.client_id, extra)
            const page = yield* consentPageFor(world, member, start.url)
            expect(page.text).toContain("read the organization&#39;s notebook")
            expect(page.text).toContain("delete the notes you saved")
            expect(page.text).not.toContain("details")
            expect(page.text).toContain('name="grant.notes:write" value="notes:write" checked')
            expect(page.text).toContain(
              '<button type="submit" name="decision" value="approve">Allow</button>'
            )
            expect(offeredOrganizations(page.text)).toEqual([organization.id])
            // Nothing ticked: the page again, saying so; nothing is issued.
            const none = yield* decide(world, member, page.text, {
              tamper: (form) => {
                form.delete("grant.notes:read")
                form.delete("grant.notes:write")
              }
            })
            expect(none.status).toBe(400)
            expect(none.text).toContain("Tick at least one thing the app may do")
            expect(none.text).not.toContain('value="notes:write" checked')
            // A box for a scope that was not asked for grants nothing more.
            const readOnly = yield* decide(world, member, page.text, {
              tamper: (form) => form.delete("grant.notes:write")
            })
            expect(readOnly.status).toBe(303)
            const tokens = yield* exchange(world, { client, extra }, start, new URL(readOnly.location ?? ""))
            expect(tokens.scope).toBe("notes:read")
            const both = yield* codeFlow(world, member, { client, organizationId: organization.id, extra })
            expect(both.scope).toBe("notes:read notes:write")
            // Read only asked: only that box, and only that granted, whatever else is posted.
            const readExtra = { resource: AGENT_RESOURCE, scope: "notes:read" }
            const readStart = yield* authorizationUrl(world, client.client_id, readExtra)
            const readPage = yield* consentPageFor(world, member, readStart.url)
            expect(readPage.text).not.toContain("grant.notes:write")
            const forced = yield* decide(world, member, readPage.text, {
              tamper: (form) => form.set("grant.notes:write", "notes:write")
            })
            const readTokens = yield* exchange(
              world,
              { client, extra: readExtra },
              readStart,
              new URL(forced.location ?? "")
            )
            expect(readTokens.scope).toBe("notes:read")
          })
      )

      it.scoped(
        "a slug or paragraph that does not exist is a tool error naming it, and nothing is saved",
        () =>
          Effect.gen(function* () {
            const { grant } = yield* ownerWithGrant("precise")
            const client = yield* mcpClient(grant.accessToken)
            const noEpisode = yield* callTool(client, "save_note", { slug: "99", text: "Nowhere." })
            expect(noEpisode.isError).toBe(true)
            expect(textOf(noEpisode)).toContain('"99"')
            const noParagraph = yield* callTool(client, "save_note", {
              slug: "4",
              paragraph_index: 9999,
              text: "Far."
            })
            expect(noParagraph.isError).toBe(true)
            expect(textOf(noParagraph)).toContain("paragraph 9999")
            const tooLong = yield* callTool(client, "save_note", { slug: "4", text: "x".repeat(2001) })
            expect(tooLong.isError).toBe(true)
            const empty = yield* callTool(client, "save_note", { slug: "4", text: "" })
            expect(empty.isError).toBe(true)
            const listed = (yield* callTool(client, "list_notes"))
              .structuredContent as unknown as NotePageJson
            expect(listed.items).toEqual([])
          })
      )

      it.effect("tokens for /api/v1 are refused at /mcp/agent, and its tokens at /api/v1", () =>
        Effect.gen(function* () {
          const { world, owner, organization, grant } = yield* ownerWithGrant("crosser")
          const client = yield* registerPublic(world)
          const apiTokens = yield* codeFlow(world, owner, { client, organizationId: organization.id })
          const apiAtAgent = yield* rawMcp({ authorization: `Bearer ${apiTokens.access_token}` })
          expect(apiAtAgent.status).toBe(401)
          expect(apiAtAgent.headers.get("www-authenticate")).toContain('error="invalid_token"')
          const organizationToken = yield* createToken(owner, organization.id, ["organizations:read"])
          const keyAtAgent = yield* rawMcp({ authorization: `Bearer ${organizationToken.token}` })
          expect(keyAtAgent.status).toBe(401)
          expect(keyAtAgent.headers.get("www-authenticate")).toContain(
            `resource_metadata="${AGENT_METADATA}"`
          )
          const agentAtApi = yield* callApi(world, grant.accessToken, `/organizations/${organization.id}`)
          expect(agentAtApi.status).toBe(401)
          expect(agentAtApi.challenges[0]?.parameters.error).toBe("invalid_token")
          expect(
            (yield* callApi(world, apiTokens.access_token, `/organizations/${organization.id}`)).status
          ).toBe(200)
          expect((yield* rawMcp({ authorization: `Bearer ${grant.accessToken}` })).status).toBe(200)
        })
      )

      it.effect("a revoked connection answers 401", () =>
        Effect.gen(function* () {
          const { owner, grant } = yield* ownerWithGrant("revoker")
          expect((yield* rawMcp({ authorization: `Bearer ${grant.accessToken}` })).status).toBe(200)
          const connections = (yield* call("/connections", { session: owner.session })).json as {
            items: ReadonlyArray<{ id: string; resource: string }>
          }
          const connection = connections.items.find((item) => item.resource === AGENT_RESOURCE)
          expect(connection).toBeDefined()
          const ended = yield* call(`/connections/${connection?.id}`, {
            method: "DELETE",
            session: owner.session
          })
          expect(ended.status).toBe(200)
          const after = yield* rawMcp({ authorization: `Bearer ${grant.accessToken}` })
          expect(after.status).toBe(401)
          expect(after.headers.get("www-authenticate")).toContain('error="invalid_token"')
        })
      )

      it.effect("the Host and Origin rules of /mcp apply before authentication, and GET is 405", () =>
        Effect.gen(function* () {
          const foreign = yield* rawMcp({ origin: "https://evil.example" })
          expect(foreign.status).toBe(403)
          expect(JSON.parse(foreign.text).message).toContain("MCP_ALLOWED_ORIGINS")
          const rebound = yield* rawMcp({ host: "rebound.example" })
          expect(rebound.status).toBe(403)
          const get = yield* rawMcp({}, { method: "GET" })
          expect(get.status).toBe(405)
        })
      )
    })
  })
}

describe("grants approved with the old scopes of /mcp/agent", () => {
  it("read as the notebook's", () => {
    expect(agentScopes(["organizations:read"])).toEqual(["notes:read"])
    expect(agentScopes(["organizations:read", "organizations:write"])).toEqual(["notes:read", "notes:write"])
    expect(agentScopes(["notes:write", "organizations:write"])).toEqual(["notes:write"])
    expect(agentScopes([])).toEqual([])
  })
})

describeNeeding(hasPostgres ? undefined : postgresUnavailable)(
  "grants approved with the old scopes of /mcp/agent, on PostgreSQL",
  () => {
    layer(postgresAgentServer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.scoped(
        "keep working until they end: organizations:read reads, organizations:write writes, and a read grant is challenged for notes:write",
        () =>
          Effect.gen(function* () {
            const { world, owner, organization, grant } = yield* ownerWithGrant("veteran")
            const reader = yield* agentToken(world, owner, organization.id, "notes:read")
            // As they were stored before the notebook had its own scopes.
            const rewrite = (clientId: string, scopes: string) =>
              Effect.all([
                sqlQuery("UPDATE oauth_grants SET scopes = $1::text[] WHERE client_id = $2", [
                  scopes,
                  clientId
                ]),
                sqlQuery(
                  "UPDATE oauth_access_tokens SET scopes = $1::text[] WHERE grant_id IN (SELECT id FROM oauth_grants WHERE client_id = $2)",
                  [scopes, clientId]
                )
              ])
            yield* rewrite(grant.clientId, "{organizations:read,organizations:write}")
            yield* rewrite(reader.clientId, "{organizations:read}")
            const stored = yield* sqlQuery("SELECT scopes FROM oauth_grants WHERE client_id = $1", [
              grant.clientId
            ])
            expect(stored[0]?.scopes).toEqual(["organizations:read", "organizations:write"])

            const writing = yield* mcpClient(grant.accessToken)
            const saved = yield* callTool(writing, "save_note", { slug: "2", text: "From an old grant." })
            expect(saved.isError ?? false).toBe(false)
            const reading = yield* mcpClient(reader.accessToken)
            const listed = (yield* callTool(reading, "list_notes"))
              .structuredContent as unknown as NotePageJson
            expect(listed.items.map((item) => item.text)).toEqual(["From an old grant."])
            const refused = yield* rawMcp(
              { authorization: `Bearer ${reader.accessToken}` },
              {
                body: {
                  jsonrpc: "2.0",
                  id: 1,
                  method: "tools/call",
                  params: { name: "save_note", arguments: { slug: "2", text: "No." } }
                }
              }
            )
            expect(refused.status).toBe(403)
            expect(refused.headers.get("www-authenticate")).toContain('scope="notes:read notes:write"')
            // A refreshed token of an old grant holds what its scopes stand for, and works the same.
            const refreshed = yield* refresh(
              world,
              { client_id: grant.clientId, token_endpoint_auth_method: "none" },
              grant.refreshToken ?? ""
            )
            expect(refreshed.scope).toBe("notes:read notes:write")
            const again = yield* mcpClient(refreshed.access_token)
            expect(
              (yield* callTool(again, "save_note", { slug: "3", text: "Still." })).isError ?? false
            ).toBe(false)
          })
      )

      it.scoped(
        "show and refresh as the notebook's scopes: a demoted admin's old write grant keeps notes:write, as any member may write notes",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("old grants owner")
            const organization = yield* createOrganization(owner, "Old Grants Org")
            const admin = yield* join(owner, organization.id, "admin", "old grants admin")
            const grant = yield* agentToken(world, admin.account, organization.id, "notes:read notes:write")
            yield* sqlQuery("UPDATE oauth_grants SET scopes = $1::text[] WHERE client_id = $2", [
              "{organizations:read,organizations:write}",
              grant.clientId
            ])
            const asStored = yield* sqlQuery("SELECT scopes FROM oauth_grants WHERE client_id = $1", [
              grant.clientId
            ])
            expect(asStored[0]?.scopes).toEqual(["organizations:read", "organizations:write"])

            // The connections list and the console's rows say what the grant lets the app do now.
            const own = (yield* call("/connections", { session: admin.account.session })).json as {
              items: ReadonlyArray<{ clientId: string; scopes: ReadonlyArray<string>; resource: string }>
            }
            expect(own.items).toMatchObject([
              { clientId: grant.clientId, scopes: ["notes:read", "notes:write"], resource: AGENT_RESOURCE }
            ])
            const onOrganization = (yield* call(`/organizations/${organization.id}/connections`, {
              session: owner.session
            })).json as { items: ReadonlyArray<{ scopes: ReadonlyArray<string> }> }
            expect(onOrganization.items.map((item) => item.scopes)).toEqual([["notes:read", "notes:write"]])
            const accountPage = yield* request("/account", {
              headers: { cookie: `${COOKIE}=${admin.account.session}` }
            })
            expect(accountPage.status).toBe(200)
            expect(accountPage.text).toContain(
              `<code>notes:read</code>, <code>notes:write</code> on <code>${AGENT_RESOURCE}</code>`
            )
            expect(accountPage.text).not.toContain("organizations:write")

            // Demoted to member: the refresh keeps notes:write, rewrites the grant in the notebook's
            // words, and the new token writes.
            const demoted = yield* call(`/organizations/${organization.id}/members/${admin.memberId}`, {
              method: "PATCH",
              session: owner.session,
              body: { role: "member" }
            })
            expect(demoted.status).toBe(200)
            const refreshed = yield* refresh(
              world,
              { client_id: grant.clientId, token_endpoint_auth_method: "none" },
              grant.refreshToken ?? ""
            )
            expect(refreshed.scope).toBe("notes:read notes:write")
            const rewritten = yield* sqlQuery("SELECT scopes FROM oauth_grants WHERE client_id = $1", [
              grant.clientId
            ])
            expect(rewritten[0]?.scopes).toEqual(["notes:read", "notes:write"])
            const client = yield* mcpClient(refreshed.access_token)
            const saved = yield* callTool(client, "save_note", { slug: "2", text: "Demoted, still writing." })
            expect(saved.isError ?? false).toBe(false)
            // A refresh may still narrow, naming either the former scope or the present one.
            const narrowed = yield* refresh(
              world,
              { client_id: grant.clientId, token_endpoint_auth_method: "none" },
              refreshed.refresh_token ?? "",
              undefined,
              { scope: "organizations:read" }
            )
            expect(narrowed.scope).toBe("notes:read")
          })
      )

      it.effect(
        "an authorization request without scope is for the resource's read scope: notes:read here, organizations:read for the default resource (foundation-extensions §8)",
        () =>
          Effect.gen(function* () {
            const world = yield* oauthWorld
            const owner = yield* signUpVerified("default scope owner")
            const organization = yield* createOrganization(owner, "Default Scope Org")
            const member = (yield* join(owner, organization.id, "member", "default scope member")).account
            const client = yield* registerPublic(world, "Notebook agent")
            const extra = { resource: AGENT_RESOURCE }
            const start = yield* authorizationUrl(world, client.client_id, extra)
            start.url.searchParams.delete("scope")
            const page = yield* consentPageFor(world, member, start.url)
            expect(page.text).toContain('name="grant.notes:read" value="notes:read" checked')
            expect(page.text).not.toContain("grant.notes:write")
            const approved = yield* decide(world, member, page.text)
            const tokens = yield* exchange(world, { client, extra }, start, new URL(approved.location ?? ""))
            expect(tokens.scope).toBe("notes:read")
            // Without resource either, it is the foundation API's read scope.
            const apiStart = yield* authorizationUrl(world, client.client_id)
            apiStart.url.searchParams.delete("scope")
            apiStart.url.searchParams.delete("resource")
            const apiPage = yield* consentPageFor(world, member, apiStart.url)
            const apiApproved = yield* decide(world, member, apiPage.text)
            const apiTokens = yield* exchange(
              world,
              { client },
              apiStart,
              new URL(apiApproved.location ?? "")
            )
            expect(apiTokens.scope).toBe("organizations:read")
          })
      )
    })
  }
)

// A TypeScript service calling the catalog over RPC, importing the client package as a project of
// your own would (`@podcast-platform/catalog-client`; in this repository the name maps to the source,
// tsconfig.json `paths`). Run it against a running service; it prints what each call returned:
//   npx tsx src/catalog/rpc/example.ts [http://127.0.0.1:8080/rpc]
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { CatalogClient } from "@podcast-platform/catalog-client"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"

const url = process.argv[2] ?? "http://127.0.0.1:8080/rpc"

const program = Effect.gen(function* () {
  const catalog = yield* CatalogClient

  const page = yield* catalog.SearchEpisodes({ query: "lighthouse", limit: 3 })
  yield* Console.log(`Episodes about lighthouses (${page.data.length}):`)
  for (const episode of page.data) yield* Console.log(`  ${episode.slug}  ${episode.title}`)

  const hits = yield* catalog.SearchTranscripts({ query: "speed of sound", limit: 2 })
  yield* Console.log(`Said about the speed of sound (${hits.data.length}):`)
  for (const hit of hits.data) {
    const when = hit.startSeconds === null ? "untimed" : `at ${hit.startSeconds} s`
    yield* Console.log(`  episode ${hit.slug}, paragraph ${hit.paragraphIndex} (${when}): ${hit.snippet}`)
  }

  const { data: transcript } = yield* catalog.GetTranscript({ slug: "7" })
  yield* Console.log(`Transcript of "${transcript.title}": ${transcript.paragraphs.length} paragraphs`)

  const answer = yield* catalog.Ask({ question: "Who found the wreck of the Margery Hale?", limit: 2 })
  yield* Console.log(`Ask: ${answer.answer}`)
  for (const [i, citation] of answer.citations.entries())
    yield* Console.log(`  [${i + 1}] ${citation.title}: ${citation.url}`)

  // Failures are typed: an unknown slug is a NotFound to handle, an argument outside the contract
  // a BadRequest (refused before anything is sent).
  const missing = yield* catalog.GetEpisode({ slug: "9999" }).pipe(
    Effect.map((detail) => detail.data.title),
    Effect.catchTag("NotFound", (error) => Effect.succeed(`not found: ${error.message}`))
  )
  yield* Console.log(missing)
  const refused = yield* catalog.SearchEpisodes({ limit: 0 }).pipe(
    Effect.map((empty) => `${empty.data.length} episodes`),
    Effect.catchTag("BadRequest", (error) => Effect.succeed(`refused: ${error.message}`))
  )
  yield* Console.log(refused)
})

program.pipe(Effect.provide(CatalogClient.layer({ url })), NodeRuntime.runMain)

// A TypeScript service calling the catalog over RPC, importing the client as any dependant package
// would (`podcast-platform/client`). Run it against a running service:
//   npx tsx src/catalog/rpc/example.ts [http://127.0.0.1:8080/rpc]
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { CatalogClient } from "podcast-platform/client"

const url = process.argv[2] ?? "http://127.0.0.1:8080/rpc"

const program = Effect.gen(function* () {
  const catalog = yield* CatalogClient

  const page = yield* catalog.SearchEpisodes({ query: "lighthouse", limit: 3 })
  yield* Console.log(`Episodes about lighthouses (${page.data.length}):`)
  for (const episode of page.data) yield* Console.log(`  ${episode.slug}  ${episode.title}`)

  const hits = yield* catalog.SearchTranscripts({ query: "speed of sound", limit: 2 })
  for (const hit of hits.data)
    yield* Console.log(`  said in ${hit.slug} at ${hit.startSeconds ?? "?"} s: ${hit.snippet}`)

  const { data: transcript } = yield* catalog.GetTranscript({ slug: "7" })
  yield* Console.log(`Transcript of "${transcript.title}": ${transcript.paragraphs.length} paragraphs`)

  const answer = yield* catalog.Ask({ question: "Who found the wreck of the Margery Hale?", limit: 2 })
  yield* Console.log(`Ask: ${answer.answer}`)
  for (const [i, citation] of answer.citations.entries())
    yield* Console.log(`  [${i + 1}] ${citation.title}: ${citation.url}`)

  // Failures are typed: an unknown slug is a NotFound to handle, a bad argument a BadRequest.
  const missing = yield* catalog.GetEpisode({ slug: "9999" }).pipe(
    Effect.map((detail) => detail.data.title),
    Effect.catchTag("NotFound", (error) => Effect.succeed(`not found: ${error.message}`))
  )
  yield* Console.log(missing)
})

program.pipe(Effect.provide(CatalogClient.layer({ url })), NodeRuntime.runMain)

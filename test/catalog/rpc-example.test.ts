// The RPC example program (src/catalog/rpc/example.ts), run as content/docs/rpc-and-ask.md says
// (`npx tsx …` with the service's /rpc URL) against a test server: it prints what each call returned, and what it prints
// is what REST and ask answer for the same questions.
import { join, resolve } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { AskAnswer } from "../../src/catalog/ask/AskAnswer.js"
import type { EpisodePage, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import type { TranscriptDetail } from "../../src/catalog/domain/Transcript.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { runCommand } from "../support/Command.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { request } from "../support/TestServer.js"

const repository = resolve(import.meta.dirname, "..", "..")
const tsx = join(repository, "node_modules", ".bin", "tsx")

describe("the RPC example program", () => {
  it.layer(contentTestServer())((it) => {
    it.effect("prints the episodes, hits, transcript, answer and both typed failures it asks for", () =>
      Effect.gen(function* () {
        const address = yield* ServerAddress
        const run = yield* runCommand(tsx, ["src/catalog/rpc/example.ts", `${address.url}/rpc`], {
          cwd: repository,
          timeoutMs: 60_000
        })
        expect(run.stderr).toBe("")
        expect(run.code).toBe(0)
        const lines = run.stdout.trimEnd().split("\n")

        const episodes = (yield* request("/v1/episodes?q=lighthouse&limit=3"))
          .json as typeof EpisodePage.Encoded
        const hits = (yield* request("/v1/transcripts/search?q=speed%20of%20sound&limit=2"))
          .json as typeof TranscriptHitPage.Encoded
        const transcript = (yield* request("/v1/transcripts/7")).json as typeof TranscriptDetail.Encoded
        const answer = (yield* request("/ask", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ question: "Who found the wreck of the Margery Hale?", limit: 2 })
        })).json as typeof AskAnswer.Encoded
        expect(episodes.data.length).toBeGreaterThan(0)
        expect(hits.data.length).toBe(2)
        expect(answer.citations.length).toBeGreaterThan(0)

        expect(lines).toEqual([
          `Episodes about lighthouses (${episodes.data.length}):`,
          ...episodes.data.map((episode) => `  ${episode.slug}  ${episode.title}`),
          "Said about the speed of sound (2):",
          ...hits.data.map(
            (hit) =>
              `  episode ${hit.slug}, paragraph ${hit.paragraphIndex} (${hit.startSeconds === null ? "untimed" : `at ${hit.startSeconds} s`}): ${hit.snippet}`
          ),
          `Transcript of "${transcript.data.title}": ${transcript.data.paragraphs.length} paragraphs`,
          `Ask: ${answer.answer}`,
          ...answer.citations.map((citation, i) => `  [${i + 1}] ${citation.title}: ${citation.url}`),
          'not found: No episode has the slug "9999".',
          "refused: limit: must be an integer from 1 to 50"
        ])
      })
    )
  })
})

// Ask about the show itself, through the real server over the demo podcast: questions that named
// "nothing to look for" are answered, every sentence of a fact answer says what the record it cites
// says (titles, numbers, dates, durations, people), the phrasing variants read the same, the event
// stream and the RPC procedure carry the same answer, episodes and seasons that do not exist are
// said not to exist, and the OpenAPI document describes the new intent fields.
import { describe, expect, it } from "@effect/vitest"
import { AskAnswer, CatalogClient } from "@podcast-platform/catalog-client"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { EventSourceParserStream } from "eventsource-parser/stream"
import { AskFact, EpisodePick } from "../../src/catalog/ask/AskAnswer.js"
import type { EpisodePage } from "../../src/catalog/domain/Collections.js"
import type { Episode } from "../../src/catalog/domain/Episode.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { request, type TestResponse } from "../support/TestServer.js"
import { askQuestions } from "./ask-questions.js"

type Answer = typeof AskAnswer.Encoded
type EpisodeRecord = typeof Episode.Encoded

const postAsk = (question: string) =>
  request("/ask", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ question })
  })

const answerOf = (response: TestResponse): Answer => {
  expect(response.status, response.text).toBe(200)
  return response.json as Answer
}

const ask = (question: string) => Effect.map(postAsk(question), answerOf)

const allEpisodes = Effect.map(request("/v1/episodes?limit=50"), (response) => {
  const page = response.json as typeof EpisodePage.Encoded
  expect(page.data).toHaveLength(46)
  return new Map(page.data.map((episode) => [episode.slug, episode]))
})

/** The answer's segments, each the text before a marker and the citation it points to. */
const segmentsOf = (answer: Answer) => {
  const segments = [...answer.answer.matchAll(/(.+?) \[(\d+)\](?: |$)/g)].map((match) => ({
    text: match[1] ?? "",
    citation: answer.citations[Number(match[2]) - 1]
  }))
  expect(segments.map((s) => s.text).join("").length).toBeGreaterThan(0)
  return segments
}

/** "29 April 2025" as the date part of an ISO timestamp, read independently of the server. */
const isoDate = (text: string) => new Date(`${text} 12:00 UTC`).toISOString().slice(0, 10)

/** "1 hour 2 minutes 3 seconds" in seconds. */
const secondsOf = (text: string) =>
  [...text.matchAll(/(\d+) (hour|minute|second)s?/g)].reduce(
    (sum, [, count, unit]) => sum + Number(count) * (unit === "hour" ? 3600 : unit === "minute" ? 60 : 1),
    0
  )

const dates =
  /\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}/g
/** A duration said of one episode: "is 8 minutes 48 seconds long", "at 23 minutes 10 seconds." */
const episodeDuration = /(?:\bis|\bat) ((?:\d+ hours? )?(?:\d+ minutes? )?(?:\d+ seconds?)?)(?: long|\.)/

const factQuestions = askQuestions.filter((question) => question.kind === "fact")

describe("ask about the show itself", () => {
  it.layer(contentTestServer({ CATALOG_RATE_LIMIT: "100000" }))((it) => {
    it.effect("who hosts the show is answered from the records, not refused for naming nothing", () =>
      Effect.gen(function* () {
        const got = answerOf(yield* request(`/ask?q=${encodeURIComponent("who hosts the show")}`))
        expect(got.intent).toEqual({
          episodeNumbers: [],
          sessions: [],
          people: [],
          topics: [],
          fact: "hosts"
        })
        expect(got.answer).toBe(
          "Nell Sorensen and Ravi Castellane host the show, all 46 of its episodes up to the latest, episode 42, " +
            "“Every Map Is a Promise” (29 April 2025). [1]"
        )
        expect(got.citations).toEqual([
          { slug: "42", title: "Every Map Is a Promise", url: "http://catalog.test/v1/episodes/42" }
        ])
        expect(got.episodes.map((episode) => episode.slug)).toEqual(["42"])
        expect(got.transcriptHits).toEqual([])
      })
    )

    it.effect(
      "every sentence of a fact answer names the episode it cites, with that record's date, duration and people",
      () =>
        Effect.gen(function* () {
          const episodes = yield* allEpisodes
          const people = new Set([...episodes.values()].flatMap((e) => e.people.map((person) => person.name)))
          const titled = new Map([...episodes.values()].map((episode) => [episode.title, episode]))
          let checked = 0
          for (const { question } of factQuestions) {
            const answer = yield* ask(question)
            expect(answer.intent.fact, question).toBeDefined()
            for (const { text, citation } of segmentsOf(answer)) {
              const cited: EpisodeRecord | undefined = episodes.get(citation?.slug ?? "")
              if (cited === undefined) throw new Error(`${question}: "${text}" cites nothing`)
              const where = `${question}: "${text}"`
              // The episode by title, or its own subtitle, word for word.
              if (text !== cited.subtitle) expect(text, where).toContain(`“${cited.title}”`)
              for (const [, number, title] of text.matchAll(/episode (\d+), “([^”]+)”/gi)) {
                expect(titled.get(title ?? "")?.episodeNumber, where).toBe(Number(number))
              }
              for (const [date] of text.matchAll(dates)) {
                expect(isoDate(date), where).toBe(cited.publishedAt.slice(0, 10))
              }
              const duration = episodeDuration.exec(text)?.[1]
              if (duration !== undefined && !text.includes(" in all")) {
                expect(secondsOf(duration), where).toBe(cited.durationSeconds)
              }
              for (const name of people) {
                if (text.includes(name))
                  expect(
                    cited.people.map((person) => person.name),
                    where
                  ).toContain(name)
              }
              checked += 1
            }
          }
          expect(checked).toBeGreaterThan(factQuestions.length)
        })
    )

    it.effect(
      "reads case, punctuation, the show's names, numbers in words, seasons as sessions, ordinals and names in part",
      () =>
        Effect.gen(function* () {
          const intentOf = (question: string) => Effect.map(ask(question), (answer) => answer.intent)
          const reads: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
            ["WHO HOSTS THE PODCAST???", { fact: "hosts", topics: [] }],
            ["who's the host of this podcast", { fact: "hosts", topics: [] }],
            ["Who presents Contour Lines", { fact: "hosts", topics: [] }],
            ["who was on episode twelve", { fact: "guests", episodeNumbers: [12] }],
            ["who was on ep12", { fact: "guests", episodeNumbers: [12] }],
            ["guests, episode number 12!", { fact: "guests", episodeNumbers: [12] }],
            ["guests of session two", { fact: "guests", sessions: [2] }],
            ["guests of the second series", { fact: "guests", sessions: [2] }],
            ["who were the guests in the last season", { fact: "guests", sessions: [3] }],
            [
              "what was the second episode of season 2",
              { fact: "episode", episodeNumbers: [16], sessions: [2] }
            ],
            ["the 3rd episode", { fact: "episode", episodeNumbers: [3] }],
            ["what's the most recent episode", { fact: "episode", pick: "latest", topics: [] }],
            ["which episode is the longest", { fact: "duration", pick: "longest" }],
            ["When did the podcast start?", { fact: "published", pick: "first" }],
            ["how many episodes in season three", { fact: "episodeCount", sessions: [3] }],
            ["which episodes is kwame in", { fact: "appearances", people: [{ name: "Kwame Osei-Larbi" }] }],
            ["Which episodes is Takahara in?", { fact: "appearances", people: [{ name: "Jun Takahara" }] }],
            ["how long is the trailer", { fact: "duration", topics: ["trailer"] }]
          ]
          for (const [question, intent] of reads)
            expect(yield* intentOf(question), question).toMatchObject(intent)
          // Topic questions stay topic questions, with their words to search for.
          for (const question of [
            "How long did it take to survey the cave?",
            "When did the Margery Hale sink?",
            "Who hosted the party?",
            "episodes with Fenna de Wit",
            "What did they say about maps in the latest episode?"
          ]) {
            const intent = yield* intentOf(question)
            expect(intent.fact, question).toBeUndefined()
          }
          const scoped = yield* ask("What did they say about maps in the latest episode?")
          expect(scoped.intent).toMatchObject({ pick: "latest", topics: ["maps"] })
          expect(scoped.transcriptHits.length).toBeGreaterThan(0)
          expect(scoped.transcriptHits.every((hit) => hit.slug === "42")).toBe(true)
        })
    )

    it.effect("episodes and seasons that do not exist are said not to exist, and nothing is made up", () =>
      Effect.gen(function* () {
        const none = yield* ask("who was on episode 999")
        expect(none.answer).toBe(
          "There is no episode 999: the numbered episodes run from 1 to 42, “Every Map Is a Promise”. [1]"
        )
        expect(none.citations.map((citation) => citation.slug)).toEqual(["42"])
        expect(none.episodes).toEqual([])
        const topic = yield* ask("What happens in episode 999?")
        expect(topic.answer).toBe(none.answer)
        expect(topic.transcriptHits).toEqual([])
        const season = yield* ask("How many episodes are in season 7?")
        expect(season.answer).toBe(
          "There is no season 7: the show's seasons are 1, 2 and 3, and its latest episode, episode 42, " +
            "“Every Map Is a Promise”, is in season 3. [1]"
        )
        const elsewhere = yield* ask("who was on episode 3 of season 2")
        expect(elsewhere.answer).toBe(
          "Episode 3, “Where the Fence Should Be”, is in season 1, not season 2. [1]"
        )
        // An episode described by words no episode has: no answer rather than a guess.
        const unknown = yield* ask("how long is the episode about unicorns")
        expect(unknown.intent).toMatchObject({ fact: "duration", topics: ["unicorns"] })
        expect(unknown).toMatchObject({ answer: "", citations: [], episodes: [], transcriptHits: [] })
        // A guest asked about a season they are not in.
        const absent = yield* ask("which episodes of season 2 is Hugo Balestrieri in")
        expect(absent.answer).toMatch(
          /^Hugo Balestrieri is in no episode of season 2, but is a guest in 1 episode/
        )
        expect(absent.citations.map((citation) => citation.slug)).toEqual(["33"])
      })
    )

    it.effect("an empty or too long question is still refused with 400 before any answer", () =>
      Effect.gen(function* () {
        const tooLong = yield* postAsk(`who hosts the show ${"and who are the guests ".repeat(25)}`)
        expect(tooLong.status).toBe(400)
        expect(tooLong.json).toMatchObject({
          code: "BAD_REQUEST",
          message: "question: must be at most 500 characters"
        })
        const empty = yield* request("/ask?q=", { headers: { accept: "text/event-stream" } })
        expect(empty.status).toBe(400)
        expect((yield* postAsk("what is it?")).status).toBe(400)
      })
    )

    it.effect(
      "streams a fact answer as intent, its episodes, the answer and done, as the JSON answer has them",
      () =>
        Effect.gen(function* () {
          const question = "Who were the guests in season one?"
          const json = yield* ask(question)
          const address = yield* ServerAddress
          const events = yield* Effect.promise(async () => {
            const response = await fetch(`${address.url}/ask`, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "text/event-stream" },
              body: JSON.stringify({ question })
            })
            const body = response.body
            if (body === null) throw new Error("no body")
            const reader = body
              .pipeThrough(new TextDecoderStream())
              .pipeThrough(new EventSourceParserStream())
              .getReader()
            const read: Array<{ event: string; data: unknown }> = []
            for (;;) {
              const { value, done } = await reader.read()
              if (done) return read
              read.push({ event: value.event ?? "message", data: JSON.parse(value.data) })
            }
          })
          expect(events.map((event) => event.event).join(" ")).toBe(
            "intent episode episode episode episode episode answer done"
          )
          expect(events[0]?.data).toEqual(json.intent)
          expect(events.filter((event) => event.event === "episode").map((event) => event.data)).toEqual(
            json.episodes
          )
          expect(events.at(-2)?.data).toEqual({ answer: json.answer, citations: json.citations })
          expect(events.at(-1)?.data).toEqual({ episodes: 5, transcriptHits: 0, citations: 16 })
        })
    )

    it.effect("the RPC Ask procedure answers a fact question as POST /ask does", () =>
      Effect.gen(function* () {
        const address = yield* ServerAddress
        const question = "When did episode 3 come out?"
        const answer = yield* Effect.flatMap(CatalogClient, (client) => client.Ask({ question })).pipe(
          Effect.provide(CatalogClient.layer({ url: `${address.url}/rpc` }))
        )
        expect(answer).toBeInstanceOf(AskAnswer)
        expect(answer.intent.fact).toBe("published")
        expect(Schema.encodeSync(AskAnswer)(answer)).toEqual(yield* ask(question))
        expect(answer.answer).toBe("Episode 3, “Where the Fence Should Be”, came out on 28 March 2023. [1]")
      })
    )

    it.effect(
      "the OpenAPI document describes intent.fact and intent.pick with the values the schema has",
      () =>
        Effect.gen(function* () {
          const spec = (yield* request("/openapi.json")).json as {
            components: {
              schemas: Record<
                string,
                { properties?: Record<string, unknown>; required?: Array<string>; enum?: Array<string> }
              >
            }
          }
          const intent = spec.components.schemas.AskIntent
          expect(intent?.properties).toMatchObject({
            fact: { $ref: "#/components/schemas/AskFact" },
            pick: { $ref: "#/components/schemas/EpisodePick" }
          })
          expect(intent?.required).not.toContain("fact")
          expect(intent?.required).not.toContain("pick")
          expect(spec.components.schemas.AskFact?.enum).toEqual([...AskFact.literals])
          expect(spec.components.schemas.EpisodePick?.enum).toEqual([...EpisodePick.literals])
        })
    )
  })
})

// The ask endpoint through the real server over the demo podcast: intent recognition, scoped search,
// an extractive answer whose every sentence is cited (and found where it cites), JSON and
// server-sent events read with real SSE readers (EventSource, and an SSE parser over fetch for
// POST), the error event, clients that go away, and every bound.
import { connect } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { EventSource } from "eventsource"
import { type EventSourceMessage, EventSourceParserStream } from "eventsource-parser/stream"
import type { AskAnswer, AskComposition } from "../../src/catalog/ask/AskAnswer.js"
import type { EpisodeDetail } from "../../src/catalog/domain/Episode.js"
import type { TranscriptDetail } from "../../src/catalog/domain/Transcript.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { request, type TestResponse } from "../support/TestServer.js"

type Answer = typeof AskAnswer.Encoded

const postAsk = (body: unknown, headers: Record<string, string> = {}) =>
  request("/ask", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

const getAsk = (question: string, extra = "", headers: Record<string, string> = {}) =>
  request(`/ask?q=${encodeURIComponent(question)}${extra}`, { headers })

const answerOf = (response: TestResponse): Answer => {
  expect(response.status, response.text).toBe(200)
  expect(response.headers.get("content-type")).toContain("application/json")
  return response.json as Answer
}

const ask = (question: string, limit?: number) =>
  Effect.map(postAsk(limit === undefined ? { question } : { question, limit }), answerOf)

const badRequest = (response: TestResponse, fragment: string | RegExp) => {
  expect(response.status).toBe(400)
  expect(response.json).toMatchObject({ defined: true, code: "BAD_REQUEST", status: 400 })
  expect((response.json as { message: string }).message).toMatch(fragment)
}

/** The answer's sentences with their citation numbers; fails unless every sentence ends with `[n]`. */
const citedSentences = (answer: string, citations: number) => {
  const sentences = [...answer.matchAll(/(.+?) \[(\d+)\](?: |$)/g)].map((match) => ({
    text: match[1] ?? "",
    citation: Number(match[2])
  }))
  expect(sentences.map((s) => `${s.text} [${s.citation}]`).join(" ")).toBe(answer)
  for (const sentence of sentences) {
    expect(sentence.citation).toBeGreaterThanOrEqual(1)
    expect(sentence.citation).toBeLessThanOrEqual(citations)
  }
  return sentences
}

interface StreamEvent {
  readonly event: string
  readonly data: unknown
}

/** Reads a whole event stream with a browser-compatible EventSource (GET), until `done` or `error`. */
const eventSource = (path: string) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.async<ReadonlyArray<StreamEvent>>((resume) => {
      const events: Array<StreamEvent> = []
      const source = new EventSource(`${address.url}${path}`)
      const finish = () => {
        source.close()
        resume(Effect.succeed(events))
      }
      for (const name of ["intent", "episode", "hit", "answer", "done"]) {
        source.addEventListener(name, (event) => {
          events.push({ event: name, data: JSON.parse(event.data) })
          if (name === "done") finish()
        })
      }
      // EventSource reports our `error` events and its own connection errors alike: ours carry data.
      source.addEventListener("error", (event) => {
        events.push({ event: "error", data: "data" in event ? JSON.parse(String(event.data)) : null })
        finish()
      })
      return Effect.sync(() => source.close())
    })
  )

/** Reads an event stream answered to any request with an SSE parser over fetch's body. */
const parsedStream = (path: string, init: RequestInit) =>
  Effect.flatMap(ServerAddress, (address) =>
    Effect.promise(async () => {
      const response = await fetch(`${address.url}${path}`, init)
      expect(response.headers.get("content-type")).toBe("text/event-stream")
      expect(response.headers.get("cache-control")).toBe("no-cache")
      const events: Array<StreamEvent> = []
      const body = response.body
      if (body === null) throw new Error("no body")
      const reader = body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream())
        .getReader()
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return events
        const message: EventSourceMessage = value
        events.push({ event: message.event ?? "message", data: JSON.parse(message.data) })
      }
    })
  )

describe("ask", () => {
  it.layer(contentTestServer())((it) => {
    it.effect(
      "answers a question about a guest and a topic with what the guest said, every sentence cited",
      () =>
        Effect.gen(function* () {
          const answer = yield* ask("What did Prudence Ashworth say about wheat starch paste?")
          expect(answer.question).toBe("What did Prudence Ashworth say about wheat starch paste?")
          expect(answer.intent).toEqual({
            episodeNumbers: [],
            sessions: [],
            people: [
              {
                name: "Prudence Ashworth",
                role: "guest",
                url: "https://contourlines.example/people/prudence-ashworth"
              }
            ],
            topics: ["wheat", "starch", "paste"]
          })
          expect(answer.transcriptHits.length).toBeGreaterThan(0)
          expect(answer.transcriptHits.every((hit) => hit.speaker === "Prudence Ashworth")).toBe(true)
          expect(answer.transcriptHits[0]?.slug).toBe("7")
          expect(answer.episodes[0]?.slug).toBe("7")
          const sentences = citedSentences(answer.answer, answer.citations.length)
          expect(sentences.length).toBeGreaterThanOrEqual(2)
          expect(answer.answer).toMatch(/wheat starch paste/i)
          expect(answer.citations[0]).toMatchObject({
            slug: "7",
            title: "Foxing, Tears and Wheat Starch Paste",
            paragraphIndex: answer.transcriptHits[0]?.paragraphIndex,
            url: "http://catalog.test/v1/transcripts/7"
          })
        })
    )

    it.effect("every cited sentence is found, word for word, where its citation points", () =>
      Effect.gen(function* () {
        const questions = [
          "What did Prudence Ashworth say about wheat starch paste?",
          "How did the Pollard Bank move between 1794 and 1991?",
          "Who found the wreck of the Margery Hale?",
          "episodes with Fenna de Wit",
          "What happens in episode 12?"
        ]
        for (const question of questions) {
          const answer = yield* ask(question)
          const sentences = citedSentences(answer.answer, answer.citations.length)
          expect(sentences.length, question).toBeGreaterThan(0)
          for (const { text, citation } of sentences) {
            const cited = answer.citations[citation - 1]
            if (cited === undefined) throw new Error(`citation ${citation} missing`)
            const source = cited.url.replace("http://catalog.test", "")
            if (cited.paragraphIndex === undefined) {
              expect(source).toBe(`/v1/episodes/${cited.slug}`)
              const episode = (yield* request(source)).json as typeof EpisodeDetail.Encoded
              expect(`${episode.data.description} ${episode.data.subtitle}`, question).toContain(
                text.replace(/\.$/, "")
              )
            } else {
              expect(source).toBe(`/v1/transcripts/${cited.slug}`)
              const transcript = (yield* request(source)).json as typeof TranscriptDetail.Encoded
              const paragraph = transcript.data.paragraphs[cited.paragraphIndex]
              const spoken = paragraph?.speaker === null ? text : text.replace(`${paragraph?.speaker}: `, "")
              expect(paragraph?.text.replace(/\[/g, "(").replace(/\]/g, ")"), question).toContain(spoken)
              expect(cited.startSeconds ?? null).toBe(paragraph?.startSeconds ?? null)
            }
          }
        }
      })
    )

    it.effect("recognises episode numbers in digits, words and #, and keeps to those episodes", () =>
      Effect.gen(function* () {
        const twelve = yield* ask("What happens in episode 12?")
        expect(twelve.intent).toMatchObject({ episodeNumbers: [12], topics: [] })
        expect(twelve.episodes.map((episode) => episode.slug)).toEqual(["12"])
        expect((yield* ask("Tell me about episodes three and four")).intent.episodeNumbers).toEqual([3, 4])
        expect((yield* ask("episode forty-two, please")).intent.episodeNumbers).toEqual([42])
        expect((yield* ask("episode forty two")).intent.episodeNumbers).toEqual([42])
        expect((yield* ask("Compare episodes 3, 4 and 7")).intent.episodeNumbers).toEqual([3, 4, 7])
        const hashed = yield* ask("#7 conservation")
        expect(hashed.intent).toMatchObject({ episodeNumbers: [7], topics: ["conservation"] })
        expect(hashed.transcriptHits.every((hit) => hit.slug === "7")).toBe(true)
        expect(hashed.transcriptHits.length).toBeGreaterThan(0)
      })
    )

    it.effect("recognises sessions and keeps the search inside them", () =>
      Effect.gen(function* () {
        const second = yield* ask("maps in the second season")
        expect(second.intent).toMatchObject({ sessions: [2], topics: ["maps"] })
        expect(second.episodes.length).toBeGreaterThan(0)
        expect(second.episodes.every((episode) => episode.session === 2)).toBe(true)
        expect(second.transcriptHits.every((hit) => hit.session === 2)).toBe(true)
        expect((yield* ask("season 3 tides")).intent.sessions).toEqual([3])
        expect((yield* ask("series two")).intent.sessions).toEqual([2])
        const listing = yield* ask("season two", 20)
        expect(listing.intent).toMatchObject({ sessions: [2], topics: [] })
        expect(listing.episodes.length).toBeGreaterThan(5)
        expect(listing.episodes.every((episode) => episode.session === 2)).toBe(true)
      })
    )

    it.effect(
      "recognises hosts and guests by full name, by a unique capitalised first name, and without diacritics",
      () =>
        Effect.gen(function* () {
          const names = (answer: Answer) =>
            answer.intent.people.map((person) => `${person.name}/${person.role}`)
          expect(names(yield* ask("What does Nell Sorensen think of tide tables?"))).toEqual([
            "Nell Sorensen/host"
          ])
          expect(names(yield* ask("Did Ravi get lost?"))).toEqual(["Ravi Castellane/host"])
          expect(names(yield* ask("Who is Sigrun Eyjolfsdottir?"))).toEqual(["Sigrún Eyjólfsdóttir/guest"])
          expect(names(yield* ask("Fenna de Wit and Prudence Ashworth"))).toEqual([
            "Fenna de Wit/guest",
            "Prudence Ashworth/guest"
          ])
          // A lowercase word that happens to be a first name is a topic, not a person.
          const lower = yield* ask("a prudence lesson about maps")
          expect(lower.intent.people).toEqual([])
          expect(lower.intent.topics).toEqual(["prudence", "lesson", "maps"])
          // A guest narrows the episodes to theirs; together, to the ones they share.
          const both = yield* ask("Fenna de Wit and Prudence Ashworth")
          expect(both.episodes.map((episode) => episode.slug)).toEqual(["42"])
          const fenna = yield* ask("episodes with Fenna de Wit")
          expect(fenna.episodes.length).toBeGreaterThan(1)
          for (const episode of fenna.episodes) {
            expect(episode.people.map((person) => person.name)).toContain("Fenna de Wit")
          }
        })
    )

    it.effect("limit bounds the episodes and hits (default 5, 1 to 20)", () =>
      Effect.gen(function* () {
        const one = yield* ask("maps", 1)
        expect(one.episodes).toHaveLength(1)
        expect(one.transcriptHits).toHaveLength(1)
        const byDefault = yield* ask("maps")
        expect(byDefault.episodes).toHaveLength(5)
        expect(byDefault.transcriptHits).toHaveLength(5)
        expect((yield* ask("maps", 20)).transcriptHits).toHaveLength(20)
      })
    )

    it.effect("GET /ask?q= answers as POST does, with an ETag, a 304 and the search cache rule", () =>
      Effect.gen(function* () {
        const question = "Who found the wreck of the Margery Hale?"
        const posted = yield* ask(question, 3)
        const got = yield* getAsk(question, "&limit=3")
        expect(answerOf(got)).toEqual(posted)
        expect(got.headers.get("cache-control")).toBe("public, max-age=60")
        const etag = got.headers.get("etag") ?? ""
        expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
        const again = yield* getAsk(question, "&limit=3", { "if-none-match": etag })
        expect(again.status).toBe(304)
        expect(again.text).toBe("")
      })
    )

    it.effect("refuses bad input with 400 in the envelope, naming the problem", () =>
      Effect.gen(function* () {
        badRequest(yield* postAsk({ question: "" }), "question: must not be empty")
        badRequest(yield* postAsk({ question: "x".repeat(501) }), "question: must be at most 500 characters")
        badRequest(yield* postAsk({ question: "maps", limit: 0 }), "limit: must be an integer from 1 to 20")
        badRequest(yield* postAsk({ question: "maps", limit: 21 }), "limit: must be an integer from 1 to 20")
        badRequest(yield* postAsk({ question: "maps", limit: "3" }), /limit/)
        badRequest(yield* postAsk({ question: "maps", model: "gpt" }), /model: is unexpected/)
        badRequest(yield* postAsk({}), /question/)
        badRequest(yield* postAsk("{ not json"), /not valid JSON/)
        badRequest(yield* postAsk({ question: "what is it?" }), "question names nothing to look for")
        badRequest(yield* request("/ask"), /q/)
        badRequest(yield* getAsk("maps", "&limit=abc"), /limit/)
        badRequest(yield* getAsk("maps", "&limit=50"), "limit: must be an integer from 1 to 20")
        badRequest(yield* getAsk("maps", "&extra=1"), /extra/)
      })
    )

    it.effect(
      "streams intent, episodes, hits, answer and done to an EventSource, carrying the JSON answer's parts",
      () =>
        Effect.gen(function* () {
          const question = "How did the Pollard Bank move between 1794 and 1991?"
          const json = answerOf(yield* getAsk(question))
          const events = yield* eventSource(`/ask?q=${encodeURIComponent(question)}`)
          const names = events.map((event) => event.event)
          expect(names[0]).toBe("intent")
          expect(names.slice(-2)).toEqual(["answer", "done"])
          const episodes = events.filter((event) => event.event === "episode").map((event) => event.data)
          const hits = events.filter((event) => event.event === "hit").map((event) => event.data)
          // Episodes come before hits, and together they are the JSON answer's lists.
          expect(names.join(" ")).toMatch(/^intent( episode)+( hit)+ answer done$/)
          expect(events[0]?.data).toEqual(json.intent)
          expect(episodes).toEqual(json.episodes)
          expect(hits).toEqual(json.transcriptHits)
          const composition = events.at(-2)?.data as typeof AskComposition.Encoded
          expect(composition).toEqual({ answer: json.answer, citations: json.citations })
          expect(events.at(-1)?.data).toEqual({
            episodes: json.episodes.length,
            transcriptHits: json.transcriptHits.length,
            citations: json.citations.length
          })
        })
    )

    it.effect("streams a POST too, when text/event-stream is accepted before JSON", () =>
      Effect.gen(function* () {
        const events = yield* parsedStream("/ask", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream, application/json" },
          body: JSON.stringify({ question: "Prudence Ashworth wheat starch paste", limit: 2 })
        })
        expect(events.map((event) => event.event).join(" ")).toMatch(
          /^intent( episode)+ hit hit answer done$/
        )
        // JSON first in Accept: JSON.
        const json = yield* postAsk(
          { question: "maps", limit: 1 },
          { accept: "application/json, text/event-stream" }
        )
        expect(answerOf(json).episodes).toHaveLength(1)
      })
    )

    it.effect(
      "ends the stream with an error event carrying the envelope when the question cannot be answered",
      () =>
        Effect.gen(function* () {
          const viaEventSource = yield* eventSource(`/ask?q=${encodeURIComponent("what is it?")}`)
          expect(viaEventSource.map((event) => event.event)).toEqual(["intent", "error"])
          expect(viaEventSource[1]?.data).toMatchObject({ defined: true, code: "BAD_REQUEST", status: 400 })
          const parsed = yield* parsedStream(`/ask?q=${encodeURIComponent("how and why")}`, {
            headers: { accept: "text/event-stream" }
          })
          expect(parsed).toEqual([
            { event: "intent", data: { episodeNumbers: [], sessions: [], people: [], topics: [] } },
            {
              event: "error",
              data: expect.objectContaining({
                code: "BAD_REQUEST",
                message: expect.stringContaining("nothing to look for")
              })
            }
          ])
          // Input that fails validation is refused before any stream starts.
          const invalid = yield* request("/ask?q=", { headers: { accept: "text/event-stream" } })
          expect(invalid.status).toBe(400)
        })
    )

    it.effect("clients that go away mid-stream leave the server answering", () =>
      Effect.gen(function* () {
        const { host, port } = yield* ServerAddress
        // A client that reads the first event and closes its connection, as a closed browser tab does.
        const readFirstAndLeave = Effect.async<string>((resume) => {
          const socket = connect(port, host, () =>
            socket.write(
              `GET /ask?q=maps&limit=20 HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\n\r\n`
            )
          )
          socket.once("data", (data: Buffer) => {
            socket.destroy()
            resume(Effect.succeed(data.toString()))
          })
          socket.once("error", () => resume(Effect.succeed("")))
        })
        const firsts = yield* Effect.all(
          Array.from({ length: 10 }, () => readFirstAndLeave),
          { concurrency: 10 }
        )
        for (const first of firsts) {
          expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
          expect(first).toContain("\r\n\r\n")
          expect(first).toContain("event: intent\n")
        }
        const events = yield* parsedStream("/ask?q=maps&limit=20", {
          headers: { accept: "text/event-stream" }
        })
        expect(events.at(-1)?.event).toBe("done")
        expect(events.filter((event) => event.event === "hit")).toHaveLength(20)
      })
    )
  })
})

describe("ask and the rate limit", () => {
  it.layer(contentTestServer({ CATALOG_RATE_LIMIT: "2" }))((it) => {
    it.effect("spends from the catalog's budget: 429 with Retry-After beyond it", () =>
      Effect.gen(function* () {
        expect((yield* getAsk("maps")).status).toBe(200)
        expect((yield* postAsk({ question: "maps" })).status).toBe(200)
        const refused = yield* postAsk({ question: "maps" })
        expect(refused.status).toBe(429)
        expect(refused.json).toMatchObject({ code: "TOO_MANY_REQUESTS" })
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      })
    )
  })
})

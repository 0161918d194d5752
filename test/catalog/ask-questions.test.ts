// The ask question set (ask-questions.ts) through the real server over the demo podcast: every
// question by GET and by POST, each answer fully cited, containing what it must and citing the
// episodes it must. One test reports the share answered correctly; one test per question says why
// that question fails.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { AskAnswer } from "../../src/catalog/ask/AskAnswer.js"
import type { EpisodePage } from "../../src/catalog/domain/Collections.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { request } from "../support/TestServer.js"
import { type AskQuestion, askQuestions } from "./ask-questions.js"

type Answer = typeof AskAnswer.Encoded

const post = (question: string) =>
  request("/ask", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ question })
  })

const get = (question: string) =>
  request(`/ask?q=${encodeURIComponent(question)}`, { headers: { accept: "application/json" } })

/** Every episode's title by slug, to check that citations name what they point to. */
const titles = Effect.map(
  request("/v1/episodes?limit=50"),
  (response) => new Map((response.json as typeof EpisodePage.Encoded).data.map((e) => [e.slug, e.title]))
)

/** What is wrong with an answer's citing: every sentence must end with `[n]`, every `n` must exist. */
const citingProblems = (answer: Answer): Array<string> => {
  const sentences = [...answer.answer.matchAll(/(.+?) \[(\d+)\](?: |$)/g)]
  const rebuilt = sentences.map((match) => `${match[1]} [${match[2]}]`).join(" ")
  const problems: Array<string> = []
  if (answer.answer === "") problems.push("the answer is empty")
  else if (rebuilt !== answer.answer) problems.push("a sentence of the answer is not followed by [n]")
  const used = new Set(sentences.map((match) => Number(match[2])))
  if ([...used].some((n) => n < 1 || n > answer.citations.length))
    problems.push("a marker points past citations")
  if (used.size !== answer.citations.length) problems.push("a citation is not referred to by any sentence")
  return problems
}

/** What is wrong with one answer to `expected.question`. */
const answerProblems = (
  expected: AskQuestion,
  answer: Answer,
  titleOf: ReadonlyMap<string, string>
): Array<string> => {
  const problems = citingProblems(answer)
  const text = answer.answer.toLowerCase()
  for (const fragment of expected.contains) {
    if (!text.includes(fragment.toLowerCase())) problems.push(`the answer lacks "${fragment}"`)
  }
  const cited = new Set(answer.citations.map((citation) => citation.slug))
  for (const slug of expected.cites) {
    if (!cited.has(slug)) problems.push(`episode ${slug} is not cited`)
  }
  if (expected.kind === "fact") {
    for (const slug of cited) {
      if (!expected.cites.includes(slug)) problems.push(`episode ${slug} is cited but not asked about`)
    }
  }
  for (const citation of answer.citations) {
    if (citation.title !== titleOf.get(citation.slug))
      problems.push(`citation of ${citation.slug} is titled "${citation.title}"`)
    if (
      !/\/v1\/(episodes|transcripts)\/-?\d+$/.test(citation.url) ||
      !citation.url.endsWith(`/${citation.slug}`)
    )
      problems.push(`citation of ${citation.slug} points to ${citation.url}`)
  }
  return problems
}

/** Asks by POST and by GET; the problems found, none when the question is answered correctly. */
const problemsOf = (expected: AskQuestion, titleOf: ReadonlyMap<string, string>) =>
  Effect.gen(function* () {
    const posted = yield* post(expected.question)
    const got = yield* get(expected.question)
    if (posted.status !== 200) return [`POST answers ${posted.status}: ${posted.text}`]
    if (got.status !== 200) return [`GET answers ${got.status}: ${got.text}`]
    const answer = posted.json as Answer
    const problems = answerProblems(expected, answer, titleOf)
    if (JSON.stringify(got.json) !== JSON.stringify(answer)) problems.push("GET and POST answer differently")
    return problems
  })

describe("the ask question set", () => {
  // Well over a minute's default budget of requests from one address.
  it.layer(contentTestServer({ CATALOG_RATE_LIMIT: "100000" }))((it) => {
    it.effect("answers every question of the set correctly, and reports the share", () =>
      Effect.gen(function* () {
        const titleOf = yield* titles
        const failures: Array<string> = []
        for (const expected of askQuestions) {
          const problems = yield* problemsOf(expected, titleOf)
          if (problems.length > 0) failures.push(`${expected.question}: ${problems.join("; ")}`)
        }
        const correct = askQuestions.length - failures.length
        const percent = ((100 * correct) / askQuestions.length).toFixed(1)
        console.log(`ask question set: ${correct} of ${askQuestions.length} answered correctly (${percent}%)`)
        expect(askQuestions.length).toBeGreaterThanOrEqual(60)
        expect(failures).toEqual([])
      })
    )

    for (const expected of askQuestions) {
      const cites = expected.cites.join(", ")
      it.effect(
        `"${expected.question}" is answered with ${expected.contains.join(", ")}, citing ${expected.kind === "fact" ? "exactly" : "at least"} ${cites}`,
        () =>
          Effect.gen(function* () {
            expect(yield* problemsOf(expected, yield* titles)).toEqual([])
          })
      )
    }
  })
})

// The snapshot reader against the real service: queries made from a catalog's own words (one, two
// and three words, word beginnings, other cases and accents, words no text holds, session filters),
// each asked of both, page after page, the answers compared whole.
import { expect } from "@effect/vitest"
import type { SnapshotReader } from "@podcast-platform/snapshot-reader"
import * as Effect from "effect/Effect"
import { request } from "./TestServer.js"

export interface ReaderQuery {
  readonly q: string | undefined
  readonly session?: number
}

/** A small seeded generator (mulberry32): the same queries on every run. */
const seeded = (seed: number) => {
  let state = seed >>> 0
  return (n: number) => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
  }
}

const wordsOf = (text: string) => [...text.matchAll(/[\p{L}\p{N}]{2,}/gu)].map((match) => match[0])

/** Accents a word's vowels and changes its case: the folding makes it the same word again. */
const accented = (word: string) =>
  word
    .replace(/e/g, "é")
    .replace(/a/g, "à")
    .replace(/^./, (first) => first.toUpperCase())

/**
 * `perKind` queries of each kind from `paragraphs` (transcript texts) and `titles`, with sessions
 * drawn from `sessions`.
 */
export const queriesFrom = (
  paragraphs: ReadonlyArray<string>,
  titles: ReadonlyArray<string>,
  sessions: ReadonlyArray<number>,
  perKind: number,
  seed = 25
): Array<ReaderQuery> => {
  const pick = seeded(seed)
  const texts = paragraphs.filter((text) => wordsOf(text).length >= 3)
  const any = <A>(items: ReadonlyArray<A>) => items[pick(items.length)] as A
  const run = (length: number) => {
    const words = wordsOf(any(texts))
    const start = pick(words.length - length + 1)
    return words.slice(start, start + length).join(" ")
  }
  const titleWords = titles.flatMap(wordsOf).filter((word) => word.length >= 5)
  const queries: Array<ReaderQuery> = []
  for (let i = 0; i < perKind; i++) {
    queries.push(
      { q: run(1) },
      { q: run(2) },
      { q: run(3) },
      { q: any(titleWords).slice(0, 3 + pick(3)) },
      { q: accented(run(1)).toUpperCase() },
      { q: `${accented(run(1))}s ${run(1)}` },
      { q: run(1 + pick(2)), session: any(sessions) }
    )
  }
  queries.push(
    { q: "zqxjvw" },
    { q: `${run(1)} zqxjvw` },
    { q: undefined },
    { q: undefined, session: any(sessions) },
    { q: "  ?! " }
  )
  return queries
}

const query = (q: ReaderQuery, limit: number) => {
  const parameters = new URLSearchParams({ limit: String(limit) })
  if (q.q !== undefined) parameters.set("q", q.q)
  if (q.session !== undefined) parameters.set("session", String(q.session))
  return parameters
}

const summaryFields = [
  "slug",
  "title",
  "session",
  "episodeNumber",
  "publishedAt",
  "durationSeconds",
  "subtitle",
  "description",
  "relevance",
  "matchedFields"
] as const

/** What `searchEpisodeSummaries` answers of an episode the service answered. */
const summaryOf = (episode: unknown) =>
  Object.fromEntries(summaryFields.map((field) => [field, (episode as Record<string, unknown>)[field]]))

/** A page, or the error envelope of a refusal. */
interface RestPage {
  readonly data?: ReadonlyArray<unknown>
  readonly nextCursor?: string | null
  readonly message?: string
}

/**
 * Asks every query of the service (REST) and of the reader, `pages` pages of `limit` each, and
 * expects the same answers; returns how many pages were compared.
 */
export const compareWithService = (
  reader: SnapshotReader,
  queries: ReadonlyArray<ReaderQuery>,
  limit: number,
  pages: number
) =>
  Effect.gen(function* () {
    let compared = 0
    for (const q of queries) {
      for (const kind of ["episodes", "transcripts"] as const) {
        if (kind === "transcripts" && q.q === undefined) continue
        const path = kind === "episodes" ? "/v1/episodes" : "/v1/transcripts/search"
        let cursor: string | undefined
        for (let page = 0; page < pages; page++) {
          const parameters = query(q, limit)
          if (cursor !== undefined) parameters.set("cursor", cursor)
          const response = yield* request(`${path}?${parameters}`)
          const rest = response.json as RestPage
          const asked = { q: q.q ?? "", session: q.session, limit, offset: page * limit }
          const read = yield* Effect.promise(() =>
            (kind === "episodes" ? reader.searchEpisodes(asked) : reader.searchTranscripts(asked)).then(
              (answer) => ({ answer, error: undefined }),
              (error: Error) => ({ answer: undefined, error })
            )
          )
          const context = `${kind} ${JSON.stringify(q)} page ${page + 1}`
          if (response.status !== 200) {
            expect(response.status, context).toBe(400)
            expect(read.error?.message, context).toBe(rest.message)
            break
          }
          expect(read.error, context).toBeUndefined()
          expect(read.answer?.data, context).toEqual(rest.data)
          if (kind === "episodes") {
            // The summaries a result list shows are these fields of the same episodes.
            const summaries = yield* Effect.promise(() => reader.searchEpisodeSummaries(asked))
            expect(summaries.data, context).toEqual((rest.data ?? []).map(summaryOf))
            expect(summaries.nextOffset, context).toBe(read.answer?.nextOffset)
          }
          expect(read.answer?.nextOffset === null, context).toBe(rest.nextCursor === null)
          compared++
          if (rest.nextCursor === null || rest.nextCursor === undefined) break
          cursor = rest.nextCursor
        }
      }
    }
    return compared
  })

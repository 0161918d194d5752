// The ask service (catalog-extensions §8), one implementation behind POST/GET /ask (JSON and
// server-sent events) and the RPC procedure `Ask`. It reads the question's intent; a fact about the
// show (hosts, guests, first or latest episode, duration, date, counts, a person's episodes) is
// answered from the episode records, a topic by searching with the catalog's own Search (episodes
// and transcripts, within the episodes, seasons and guests the question names) and composing an
// extractive answer. Every sentence is cited. No model outside the catalog is used.
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { BadRequest } from "../../http/ApiError.js"
import { Catalog, type CatalogService } from "../Catalog.js"
import type { TranscriptHit } from "../domain/Collections.js"
import type { Episode } from "../domain/Episode.js"
import { Search, type SearchService } from "../Search.js"
import { tokenize } from "../SearchOptions.js"
import { composeAnswer } from "./AnswerComposer.js"
import { AskAnswer, type AskComposition, AskDone, type AskFact, type AskIntent } from "./AskAnswer.js"
import { type AskRequest, askLimitBounds } from "./AskRequest.js"
import { CitedAnswer } from "./CitedAnswer.js"
import { answerFact, pickFrom, sayMissing } from "./FactAnswer.js"
import { makeQuestionDirectory, type RecognizedIntent, recognizeIntent } from "./IntentRecognizer.js"
import { foldName } from "./QuestionWords.js"

/** The parts of an answer in the order the event stream sends them. */
export type AskEvent =
  | { readonly _tag: "intent"; readonly intent: AskIntent }
  | { readonly _tag: "episode"; readonly episode: Episode }
  | { readonly _tag: "hit"; readonly hit: TranscriptHit }
  | { readonly _tag: "answer"; readonly composition: AskComposition }
  | { readonly _tag: "done"; readonly done: AskDone }

export interface AskService {
  readonly answer: (request: AskRequest) => Either.Either<AskAnswer, BadRequest>
  /** The same answer as events: the intent first, as soon as it is read, then the rest. */
  readonly events: (request: AskRequest) => Stream.Stream<AskEvent, BadRequest>
}

export class Ask extends Context.Tag("Ask")<Ask, AskService>() {}

/** Topic words searched at most (the rarest first): a long question still costs a few searches. */
const maxSearchedTopics = 8
/** Candidates read from each search before scoping to the question's episodes, seasons and guests. */
const candidates = 200

interface Found {
  readonly episodes: ReadonlyArray<Episode>
  readonly hits: ReadonlyArray<TranscriptHit>
}

/** Everything an answer is made of, after the intent. */
interface Parts extends Found {
  readonly composition: AskComposition
}

/** Which episodes a question keeps to: those it names by number, season, guest or pick. */
interface Scope {
  readonly inScope: (slug: string) => boolean
  readonly scoped: boolean
  /** The one season named, passed on to the searches. */
  readonly session: number | undefined
}

export const makeAsk = (catalog: CatalogService, search: SearchService): AskService => {
  const directory = makeQuestionDirectory(catalog.episodes)
  const frequency = catalog.searchData.statistics.documentFrequency
  const chronological = [...catalog.episodes].reverse()

  /**
   * The topic lists to try, from all topics down to the rarest one: every word must match in a
   * search, so when nothing matches all of them, the most common word is dropped and we try again.
   * Words no transcript contains go first (they may still be in an episode's notes).
   */
  const relaxations = (topics: ReadonlyArray<string>): Array<ReadonlyArray<string>> => {
    const rarity = (topic: string) => Math.min(...tokenize(topic).map((term) => frequency[term] ?? 0))
    const known = topics.filter((topic) => rarity(topic) > 0).sort((a, b) => rarity(a) - rarity(b))
    const unknown = topics.filter((topic) => rarity(topic) === 0)
    const ordered = [...known, ...unknown].slice(0, maxSearchedTopics)
    return ordered.map((_, i) => ordered.slice(0, ordered.length - i))
  }

  /** The episodes matching the topics, best first, of those in scope (fewer topics when none matches all). */
  const rankedEpisodes = (
    steps: ReadonlyArray<ReadonlyArray<string>>,
    scope: Scope
  ): ReadonlyArray<Episode> => {
    for (const topics of steps) {
      const page = search.episodes({
        q: topics.join(" "),
        session: scope.session,
        limit: candidates,
        cursor: undefined
      })
      const ranked = Either.isRight(page)
        ? page.right.data.filter((episode) => scope.inScope(episode.slug))
        : []
      if (ranked.length > 0) return ranked
    }
    return []
  }

  /** The question's episodes; with `withPick`, narrowed to the one it picks ("the latest episode"). */
  const scopeOf = ({ intent, people }: RecognizedIntent, withPick: boolean): Scope => {
    const numbers = new Set(intent.episodeNumbers)
    const sessions = new Set(intent.sessions)
    // Hosts are in (nearly) every episode: naming them narrows nothing, but their words rank first.
    const guests = people.filter((known) => known.slugs.size < catalog.episodes.length)
    const named = (slug: string) => {
      const episode = catalog.episode(slug)
      return (
        episode !== undefined &&
        (numbers.size === 0 || numbers.has(episode.episodeNumber)) &&
        (sessions.size === 0 || sessions.has(episode.session)) &&
        guests.every((known) => known.slugs.has(slug))
      )
    }
    const session = sessions.size === 1 ? [...sessions][0] : undefined
    const scoped = numbers.size > 0 || sessions.size > 0 || guests.length > 0
    const picked =
      withPick && intent.pick !== undefined
        ? pickFrom(
            chronological.filter((episode) => named(episode.slug)),
            intent.pick
          )?.chosen
        : undefined
    if (picked === undefined) return { inScope: named, scoped, session }
    return { inScope: (slug) => slug === picked.slug, scoped: true, session }
  }

  const find = (recognized: RecognizedIntent, limit: number): Found => {
    const { intent, people } = recognized
    const scope = scopeOf(recognized, true)
    const steps = relaxations(intent.topics)

    const ranked = rankedEpisodes(steps, scope)
    // Named episodes, seasons or guests without a topical match: their episodes, newest first.
    const listed =
      ranked.length === 0 && (scope.scoped || steps.length === 0)
        ? catalog.episodes.filter((episode) => scope.inScope(episode.slug))
        : []

    const speakers = new Set(people.flatMap((known) => [foldName(known.person.name), known.words[0] ?? ""]))
    const spokenByNamed = (hit: TranscriptHit) =>
      hit.speaker !== null &&
      (speakers.has(foldName(hit.speaker)) || speakers.has(foldName(hit.speaker.split(" ")[0] ?? "")))
    let hits: ReadonlyArray<TranscriptHit> = []
    for (const topics of steps) {
      const page = search.transcripts({
        q: topics.join(" "),
        session: scope.session,
        limit: candidates,
        cursor: undefined
      })
      const inside = Either.isRight(page) ? page.right.data.filter((hit) => scope.inScope(hit.slug)) : []
      // What a named person said comes first; otherwise relevance order is kept.
      hits = [...inside.filter(spokenByNamed), ...inside.filter((hit) => !spokenByNamed(hit))].slice(0, limit)
      if (hits.length > 0) break
    }

    // Episodes that matched, then those the hits come from, then the listing.
    const episodes: Array<Episode> = []
    const hitEpisodes = hits.flatMap((hit) => catalog.episode(hit.slug) ?? [])
    for (const episode of [...ranked, ...hitEpisodes, ...listed]) {
      if (!episodes.some((known) => known.slug === episode.slug)) episodes.push(episode)
    }
    return { episodes: episodes.slice(0, limit), hits }
  }

  /** A fact about the show, from the episode records; topics left in the question say which episode. */
  const factParts = (recognized: RecognizedIntent, fact: AskFact, limit: number): Parts => {
    const { intent } = recognized
    let selected: Episode | undefined
    if (intent.topics.length > 0) {
      selected = rankedEpisodes(relaxations(intent.topics), scopeOf(recognized, false))[0]
      // Nothing matches the episode described: nothing to answer from.
      if (selected === undefined)
        return { episodes: [], hits: [], composition: new CitedAnswer().composition }
    }
    const { answer, episodes } = answerFact(catalog.episodes, intent, fact, recognized.people, selected)
    return { episodes: episodes.slice(0, limit), hits: [], composition: answer.composition }
  }

  /** A topic: extracts of what was said and written, after a word on any named episode or season that does not exist. */
  const topicParts = (recognized: RecognizedIntent, limit: number): Parts => {
    const { episodes, hits } = find(recognized, limit)
    const answer = new CitedAnswer()
    sayMissing(chronological, recognized.intent, answer)
    return { episodes, hits, composition: composeAnswer(catalog, recognized.intent, episodes, hits, answer) }
  }

  const partsOf = (recognized: RecognizedIntent, limit: number): Parts =>
    recognized.intent.fact === undefined
      ? topicParts(recognized, limit)
      : factParts(recognized, recognized.intent.fact, limit)

  const nothingToLookFor = new BadRequest({
    message:
      "question names nothing to look for: no episode number, season, host or guest, nor a word of two or more letters or digits beyond common words",
    data: { parameter: "question" }
  })

  const check = (recognized: RecognizedIntent): Either.Either<RecognizedIntent, BadRequest> => {
    const { episodeNumbers, sessions, people, topics, fact, pick } = recognized.intent
    const named = episodeNumbers.length + sessions.length + people.length + topics.length
    return named === 0 && fact === undefined && pick === undefined
      ? Either.left(nothingToLookFor)
      : Either.right(recognized)
  }

  const limitOf = (request: AskRequest) => request.limit ?? askLimitBounds.default

  const answer = (request: AskRequest) =>
    Either.map(check(recognizeIntent(request.question, directory)), (recognized) => {
      const { episodes, hits, composition } = partsOf(recognized, limitOf(request))
      return new AskAnswer({
        question: request.question,
        intent: recognized.intent,
        answer: composition.answer,
        citations: composition.citations,
        episodes,
        transcriptHits: hits
      })
    })

  /** The parts after the intent, once the searches are done. */
  const partsAfterIntent = (recognized: RecognizedIntent, limit: number): ReadonlyArray<AskEvent> => {
    const { episodes, hits, composition } = partsOf(recognized, limit)
    const done = new AskDone({
      episodes: episodes.length,
      transcriptHits: hits.length,
      citations: composition.citations.length
    })
    return [
      ...episodes.map((episode): AskEvent => ({ _tag: "episode", episode })),
      ...hits.map((hit): AskEvent => ({ _tag: "hit", hit })),
      { _tag: "answer", composition },
      { _tag: "done", done }
    ]
  }

  const events = (request: AskRequest): Stream.Stream<AskEvent, BadRequest> =>
    Stream.suspend(() => {
      const recognized = recognizeIntent(request.question, directory)
      const intent: AskEvent = { _tag: "intent", intent: recognized.intent }
      const rest: Stream.Stream<AskEvent, BadRequest> = Stream.suspend(() =>
        Either.match(check(recognized), {
          onLeft: (error) => Stream.fail(error),
          onRight: (checked) => Stream.fromIterable(partsAfterIntent(checked, limitOf(request)))
        })
      )
      return Stream.concat(Stream.succeed(intent), rest)
    })

  return { answer, events }
}

export const AskLive = Layer.effect(
  Ask,
  Effect.map(Effect.all([Catalog, Search]), ([catalog, search]) => makeAsk(catalog, search))
)

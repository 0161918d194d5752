// What a question asks about, read with rules rather than a model (catalog-extensions §8): episode
// numbers ("episode 12", "#12", "episodes three and four", "the second episode of season 2"),
// sessions ("season 2", "the second season", "the last season"), people (the hosts and guests of the
// feed, by full name, or by a first or last name that only one of them has), one picked episode
// ("the latest episode"), the fact about the show a question asks for ("who hosts the show", "how
// long is episode 7"), and the remaining words as topics.

import type { Episode, Person } from "../domain/Episode.js"
import { type AskFact, AskIntent, type EpisodePick } from "./AskAnswer.js"
import {
  episodeWords,
  foldName,
  numberAt,
  ordinalAt,
  possessive,
  sessionWords,
  stopwords,
  wordsOf
} from "./QuestionWords.js"

/** A host or guest of the feed, with the episodes they appear in. */
export interface KnownPerson {
  readonly person: Person
  /** The name's words, folded (lowercase, no diacritics). */
  readonly words: ReadonlyArray<string>
  readonly slugs: ReadonlySet<string>
}

/** What the recognizer knows of the catalog: its people and its seasons. */
export interface QuestionDirectory {
  readonly people: ReadonlyArray<KnownPerson>
  /** Folded first or last names that belong to one person only. */
  readonly uniqueNames: ReadonlyMap<string, KnownPerson>
  /** The catalog's seasons, in order. */
  readonly sessions: ReadonlyArray<number>
  /** The numbered episodes of each season, in order of their numbers. */
  readonly numbersBySession: ReadonlyMap<number, ReadonlyArray<number>>
}

export const makeQuestionDirectory = (episodes: ReadonlyArray<Episode>): QuestionDirectory => {
  const byName = new Map<string, { person: Person; slugs: Set<string> }>()
  for (const episode of episodes) {
    for (const person of episode.people) {
      const key = foldName(person.name)
      const known = byName.get(key) ?? { person, slugs: new Set<string>() }
      known.slugs.add(episode.slug)
      byName.set(key, known)
    }
  }
  const people = [...byName.values()].map(({ person, slugs }) => ({
    person,
    words: wordsOf(person.name).map((word) => word.folded),
    slugs
  }))
  const owners = new Map<string, Array<KnownPerson>>()
  for (const known of people) {
    if (known.words.length < 2) continue
    for (const name of new Set([known.words[0], known.words[known.words.length - 1]])) {
      if (name === undefined || name.length < 3 || stopwords.has(name)) continue
      owners.set(name, [...(owners.get(name) ?? []), known])
    }
  }
  const uniqueNames = new Map<string, KnownPerson>()
  for (const [name, list] of owners) {
    const only = list[0]
    if (list.length === 1 && only !== undefined) uniqueNames.set(name, only)
  }
  const numbersBySession = new Map<number, Array<number>>()
  for (const episode of episodes) {
    const numbers = numbersBySession.get(episode.session) ?? []
    if (episode.episodeNumber > 0) numbers.push(episode.episodeNumber)
    numbersBySession.set(episode.session, numbers)
  }
  for (const numbers of numbersBySession.values()) numbers.sort((a, b) => a - b)
  const sessions = [...numbersBySession.keys()].sort((a, b) => a - b)
  return { people, uniqueNames, sessions, numbersBySession }
}

const listJoiners = new Set(["and", "or", "to", "through"])
/** Words between "episode" and its number: "episode number 12", "episode no. 12". */
const numberMarkers = new Set(["number", "no", "nr", "num"])
/** "The last season", "the most recent season": the catalog's latest season. */
const latestSeasonWords = new Set(["last", "latest", "final", "current", "newest", "recent"])

const pickWords: Readonly<Record<string, EpisodePick>> = {
  first: "first",
  earliest: "first",
  oldest: "first",
  latest: "latest",
  newest: "latest",
  last: "latest",
  final: "latest",
  recent: "latest",
  longest: "longest",
  shortest: "shortest"
}
/** Words that may stand between a pick and its episode word: "the latest full episode". */
const pickFillers = new Set(["full", "numbered", "regular", "proper", "actual", "real", "ever", "new"])
/** Words that name an episode after a pick: "the first one", "the latest trailer". */
const pickedWords = new Set([...episodeWords, "one", "trailer", "bonus"])
/** "Came out last", "first aired": a pick said of a release. */
const releaseWords = new Set(["out", "released", "published", "aired", "air", "came", "dropped", "posted"])
/** Words that point at an episode without a number, so the topics say which: "the episode about X". */
const selectorWords = /\b(episode|episodes|ep|eps|trailer|bonus)\b/

// The cues of the facts, matched against the question's shape: its folded words with the
// recognised parts written as #ep, #season, #person and #pick.
const seasonCountCue = /\b(how many|number of) (seasons|series|sessions)\b/
const durationCue = /\bhow long\b|\b(length|duration|runtime|minutes|minute|hours)\b|\b(running|run) time\b/
const titleCue = /\b(title|titled|called|named|name)\b/
const countCue =
  /\bhow many (episodes|eps|shows|times)\b|\bnumber of (episodes|eps|shows)\b|\bepisode count\b/
const appearCue =
  /\b(appear|appears|appeared|appearing|appearance|appearances|feature|features|featured|featuring|been on|been in|in any|on any)\b|#person (in|on)\b/
const whichEpisodeCue = /\b(which|what|list|all|any) (episodes|episode|eps|ep|shows|show)\b/
const publishedCue =
  /\b(released|release|releases|published|publish|publication|aired|air|airs|airing|came out|come out|comes out|dropped|posted|premiered|premiere|launched|went live|date|day|year|month)\b/
const startCue =
  /\b(start|started|starts|begin|began|begins|beginning|debut|debuted|launch|launched|premiere|premiered)\b/
const endCue = /\b(end|ended|ends|finish|finished|conclude|concluded|wrap|wrapped|close|closed)\b/
const guestCue = /\b(guest|guests|guested|interviewee|interviewees)\b|\bhow many guests\b/
const hostCue =
  /\b(host|hosts|hosted|hosting|cohost|cohosts|co-host|co-hosts|presenter|presenters|presents|presented|presenting)\b|\bwho (runs|run|ran|makes|make|made|produces|produced|is behind|are behind|s behind) (the|this) (show|podcast)\b/
const whoOnCue =
  /\bwho (is|was|are|were|s|appeared|appears|appear|came|comes|joined|joins|featured|features|visited|guested)\b/

/** The words that only say which fact is asked; they are no topic of a fact question. */
const factWords = new Set(
  (
    "host hosts hosted hosting cohost cohosts co-host co-hosts presenter presenters presents presented presenting " +
    "runs run ran makes make made produces produced behind guest guests guested interviewee interviewees " +
    "appear appears appeared appearing appearance appearances feature features featured featuring joined joins " +
    "came come comes visited long length duration runtime running time minutes minute hours hour released " +
    "release releases published publish publication aired air airs airing out dropped posted premiered premiere " +
    "launched launch live date day year month start started starts begin began begins beginning debut debuted " +
    "end ended ends finish finished conclude concluded wrap wrapped close closed title titled called named name " +
    "number count total latest newest first last final earliest oldest recent longest shortest full numbered " +
    "regular proper actual real new been where"
  ).split(" ")
)

export interface RecognizedIntent {
  readonly intent: AskIntent
  /** Recognised people with the episodes they are in, for scoping the search. */
  readonly people: ReadonlyArray<KnownPerson>
}

type Part = "ep" | "season" | "person" | "pick"

interface Clues {
  readonly shape: string
  readonly episodeNumbers: ReadonlyArray<number>
  readonly sessions: ReadonlyArray<number>
  readonly person: boolean
  readonly pick: EpisodePick | undefined
  /** Whether an episode is named by its position ("the second episode"). */
  readonly ordinal: boolean
}

/** The fact a question asks for, from its shape; undefined for a topic question. */
const factOf = ({ shape, episodeNumbers, sessions, person, pick, ordinal }: Clues): AskFact | undefined => {
  const has = (cue: RegExp) => cue.test(shape)
  const episodeRef = episodeNumbers.length > 0 || pick !== undefined || selectorWords.test(shape)
  const seasonRef = sessions.length > 0
  const showRef = /\b(show|shows|podcast|podcasts)\b/.test(shape)
  const asksWhen = has(/\bwhen\b/)
  if (has(seasonCountCue)) return "seasonCount"
  if (has(durationCue) || pick === "longest" || pick === "shortest") return "duration"
  if (has(titleCue) && episodeRef) return "episode"
  const aboutPerson =
    has(countCue) ||
    has(appearCue) ||
    has(whichEpisodeCue) ||
    has(/\bwhere\b/) ||
    has(/\bwho (is|was|s) #person\b/) ||
    (asksWhen && has(/#person (on|in)\b/))
  if (person && aboutPerson) return "appearances"
  if (has(countCue)) return "episodeCount"
  const release = has(publishedCue) || has(startCue) || has(endCue)
  if (asksWhen && (episodeRef || seasonRef || showRef)) return "published"
  if (release && (episodeRef || seasonRef)) return "published"
  if (has(guestCue)) return "guests"
  if (has(hostCue)) return "hosts"
  if (has(whoOnCue) && (episodeRef || seasonRef || showRef)) return "guests"
  // "What's the latest episode", "what was the second episode": which episode that is.
  return pick === undefined && !ordinal ? undefined : "episode"
}

export const recognizeIntent = (question: string, directory: QuestionDirectory): RecognizedIntent => {
  const words = wordsOf(question)
  const parts = new Map<number, Part>()
  const mark = (from: number, to: number, part: Part) => {
    for (let k = from; k <= to; k++) parts.set(k, part)
  }
  const episodeNumbers: Array<number> = []
  const sessions: Array<number> = []
  /** "The second episode": the second of the season named, else episode 2. */
  const ordinalEpisodes: Array<number> = []

  /** Numbers after a marker word: "episodes 3, 4 and 7"; returns whether any was found. */
  const numbersAfter = (i: number, into: Array<number>, part: Part) => {
    let j = numberMarkers.has(words[i + 1]?.folded ?? "") ? i + 2 : i + 1
    let found = numberAt(words, j)
    const any = found !== undefined
    while (found !== undefined) {
      into.push(found.value)
      mark(i, j + found.length - 1, part)
      j += found.length
      // Further numbers follow a joiner ("3 and 4") or are digits ("3, 4"): "episode 3 two guests" is one number.
      const joined = listJoiners.has(words[j]?.folded ?? "") ? numberAt(words, j + 1) : undefined
      if (joined !== undefined) j += 1
      found = joined ?? (/^\d+$/.test(words[j]?.folded ?? "") ? numberAt(words, j) : undefined)
    }
    return any
  }

  words.forEach((word, i) => {
    if (parts.has(i)) return
    const glued = /^(?:ep|episode)(\d{1,6})$/.exec(word.folded)
    if (glued?.[1] !== undefined) {
      episodeNumbers.push(Number(glued[1]))
      mark(i, i, "ep")
    } else if (episodeWords.has(word.folded)) {
      if (numbersAfter(i, episodeNumbers, "ep")) return
      // "The first episode" is a pick; "the second episode" a position.
      const ordinal = parts.has(i - 1) ? undefined : ordinalAt(words, i - 1)
      if (ordinal !== undefined && ordinal > 1) {
        ordinalEpisodes.push(ordinal)
        mark(i - 1, i, "ep")
      }
    } else if (sessionWords.has(word.folded)) {
      numbersAfter(i, sessions, "season")
      const before = words[i - 1]?.folded ?? ""
      const ordinal = ordinalAt(words, i - 1)
      const latest = directory.sessions[directory.sessions.length - 1]
      if (ordinal !== undefined) {
        sessions.push(ordinal)
        mark(i - 1, i, "season")
      } else if (latestSeasonWords.has(before) && latest !== undefined) {
        sessions.push(latest)
        mark(words[i - 2]?.folded === "most" ? i - 2 : i - 1, i, "season")
      }
    } else if (question[word.start - 1] === "#" && /^\d{1,6}$/.test(word.folded)) {
      episodeNumbers.push(Number(word.folded))
      mark(i, i, "ep")
    }
  })
  const onlySession = sessions.length === 1 ? directory.numbersBySession.get(sessions[0] ?? 0) : undefined
  for (const ordinal of ordinalEpisodes) episodeNumbers.push(onlySession?.[ordinal - 1] ?? ordinal)

  const people: Array<{ known: KnownPerson; at: number }> = []
  const alreadyFound = (known: KnownPerson) => people.some((found) => found.known === known)
  for (const known of directory.people) {
    for (let i = 0; i + known.words.length <= words.length; i++) {
      if (known.words.every((name, k) => words[i + k]?.folded === name)) {
        people.push({ known, at: i })
        mark(i, i + known.words.length - 1, "person")
        break
      }
    }
  }
  words.forEach((word, i) => {
    const known = directory.uniqueNames.get(word.folded)
    // A lone first or last name counts only when written as a name ("Nell", not "nell").
    const capitalised = word.text[0] !== undefined && word.text[0] !== word.text[0].toLowerCase()
    if (known !== undefined && capitalised && !parts.has(i) && !alreadyFound(known)) {
      people.push({ known, at: i })
      mark(i, i, "person")
    }
  })

  let pick: EpisodePick | undefined
  for (let i = 0; i < words.length && pick === undefined; i++) {
    const candidate = pickWords[words[i]?.folded ?? ""]
    if (candidate === undefined || parts.has(i)) continue
    const next = pickFillers.has(words[i + 1]?.folded ?? "") ? i + 2 : i + 1
    const nextWord = words[next]?.folded ?? ""
    const ofEpisode = pickedWords.has(nextWord) && !parts.has(next)
    const ofRelease =
      releaseWords.has(words[i - 1]?.folded ?? "") || releaseWords.has(words[i + 1]?.folded ?? "")
    const last = i === words.length - 1 && words.some((word) => episodeWords.has(word.folded))
    // "What is the latest?": the pick is all the question names.
    const alone = words.every((word, k) => k === i || stopwords.has(word.folded))
    if (!ofEpisode && !ofRelease && !last && !alone) continue
    pick = candidate
    mark(words[i - 1]?.folded === "most" ? i - 1 : i, ofEpisode ? next : i, "pick")
  }

  const topicsOf = (skip: (i: number) => boolean) => {
    const topics: Array<string> = []
    words.forEach((word, i) => {
      const topic = word.text.toLowerCase().replace(possessive, "")
      if (skip(i) || stopwords.has(word.folded) || topic.length < 2 || topics.includes(topic)) return
      topics.push(topic)
    })
    return topics
  }
  const shapeOf = (partAt: (i: number) => Part | undefined) =>
    ` ${words
      .map((word, i) => {
        const part = partAt(i)
        return part === undefined ? word.folded : `#${part}`
      })
      .filter((token, i, all) => !(token.startsWith("#") && all[i - 1] === token))
      .join(" ")} `

  const unique = (numbers: Array<number>) => [...new Set(numbers)]
  const clues = (partAt: (i: number) => Part | undefined, person: boolean): Clues => ({
    shape: shapeOf(partAt),
    episodeNumbers,
    sessions,
    person,
    pick,
    ordinal: ordinalEpisodes.length > 0
  })
  let topics = topicsOf((i) => parts.has(i))
  let fact = factOf(clues((i) => parts.get(i), people.length > 0))

  // "Which episodes is kwame in": a lone name in lowercase counts when the question asks about a person.
  if (people.length === 0) {
    const at = words.findIndex((word, i) => !parts.has(i) && directory.uniqueNames.has(word.folded))
    const known = directory.uniqueNames.get(words[at]?.folded ?? "")
    const asPerson = (i: number) => (i === at ? "person" : parts.get(i))
    if (known !== undefined && factOf(clues(asPerson, true)) === "appearances") {
      people.push({ known, at })
      mark(at, at, "person")
      topics = topicsOf((i) => parts.has(i))
      fact = "appearances"
    }
  }

  // "When did season 3 begin": the first of its episodes; "when did it end": the last.
  if (fact === "published" && pick === undefined) {
    const shape = shapeOf((i) => parts.get(i))
    if (startCue.test(shape)) pick = "first"
    else if (endCue.test(shape)) pick = "latest"
  }

  if (fact !== undefined) {
    const remaining = topics.filter((topic) => !factWords.has(topic))
    const shape = shapeOf((i) => parts.get(i))
    // Topics left over pick out an episode ("how long is the trailer"), or make it a topic question;
    // in "who hosts Contour Lines" the capitalised words can only be the show's name.
    const named = remaining.every((topic) =>
      words.some((word) => word.text.toLowerCase() === topic && /^\p{Lu}/u.test(word.text))
    )
    if (remaining.length === 0 || selectorWords.test(shape)) topics = remaining
    else if (fact === "hosts" && /\bwho\b/.test(shape) && named) topics = []
    else fact = undefined
  }

  people.sort((a, b) => a.at - b.at)
  return {
    intent: new AskIntent({
      episodeNumbers: unique(episodeNumbers),
      sessions: unique(sessions),
      people: people.map(({ known }) => known.person),
      topics,
      ...(fact === undefined ? {} : { fact }),
      ...(pick === undefined ? {} : { pick })
    }),
    people: people.map(({ known }) => known)
  }
}

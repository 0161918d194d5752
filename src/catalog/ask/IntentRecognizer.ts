// What a question asks about, read with rules rather than a model (catalog-extensions §8): episode
// numbers ("episode 12", "#12", "episodes three and four"), sessions ("season 2", "the second
// season"), people (the hosts and guests of the feed, by full name, or by a first or last name
// that only one of them has, written with a capital), and the remaining words as topics.

import type { Episode, Person } from "../domain/Episode.js"
import { AskIntent } from "./AskAnswer.js"

/** A host or guest of the feed, with the episodes they appear in. */
export interface KnownPerson {
  readonly person: Person
  /** The name's words, folded (lowercase, no diacritics). */
  readonly words: ReadonlyArray<string>
  readonly slugs: ReadonlySet<string>
}

export interface PeopleDirectory {
  readonly people: ReadonlyArray<KnownPerson>
  /** Folded first or last names that belong to one person only. */
  readonly uniqueNames: ReadonlyMap<string, KnownPerson>
}

const combiningMarks = /\p{M}+/gu
/** Lowercase without diacritics, so "Sigrun" finds "Sigrún". */
export const foldName = (word: string) => word.normalize("NFKD").replace(combiningMarks, "").toLowerCase()

const wordPattern = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu
const possessive = /['’]s$/

interface Word {
  readonly text: string
  readonly folded: string
  readonly start: number
}

const wordsOf = (text: string): Array<Word> =>
  [...text.matchAll(wordPattern)].map((match) => ({
    text: match[0],
    folded: foldName(match[0]).replace(possessive, ""),
    start: match.index
  }))

export const makePeopleDirectory = (episodes: ReadonlyArray<Episode>): PeopleDirectory => {
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
  return { people, uniqueNames }
}

const units: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19
}
const tens: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90
}
const ordinals: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10
}

/** A number written at `words[i]` ("12", "twelve", "forty-two", "forty two"), with the words it took. */
const numberAt = (words: ReadonlyArray<Word>, i: number): { value: number; length: number } | undefined => {
  const word = words[i]?.folded
  if (word === undefined) return undefined
  if (/^\d{1,6}$/.test(word)) return { value: Number(word), length: 1 }
  const unit = units[word]
  if (unit !== undefined) return { value: unit, length: 1 }
  const [ten, one] = word.split("-")
  const tensValue = tens[ten ?? ""]
  if (tensValue === undefined) return undefined
  if (one !== undefined) {
    const oneValue = units[one]
    return oneValue !== undefined && oneValue < 10 ? { value: tensValue + oneValue, length: 1 } : undefined
  }
  const next = units[words[i + 1]?.folded ?? ""]
  return next !== undefined && next < 10
    ? { value: tensValue + next, length: 2 }
    : { value: tensValue, length: 1 }
}

/** "2nd", "second": an ordinal at `words[i]`. */
const ordinalAt = (words: ReadonlyArray<Word>, i: number): number | undefined => {
  const word = words[i]?.folded ?? ""
  const digits = /^(\d{1,4})(?:st|nd|rd|th)$/.exec(word)
  return digits?.[1] !== undefined ? Number(digits[1]) : ordinals[word]
}

const episodeWords = new Set(["episode", "episodes", "ep", "eps", "show", "shows"])
const sessionWords = new Set(["season", "seasons", "session", "sessions", "series"])
const listJoiners = new Set(["and", "or", "to", "through"])

/**
 * Words that carry no topic: function words, question words, and the words used to ask about the
 * show itself. What is left is searched for.
 */
const stopwords = new Set(
  (
    "a an the and or but nor of in on at to for from by with about as into over under between through during " +
    "before after above below up down out off than then so if is are was were be been being am do does did done " +
    "doing have has had having will would shall should can could may might must what which who whom whose where " +
    "when why how that this these those there here it its they them their theirs he him his she her hers we us " +
    "our ours you your yours me my mine any some all each every no not only also just very more most much many " +
    "such own same other too tell told say said says saying talk talked talks talking speak spoke speaks mention " +
    "mentioned mentions discuss discussed discusses explain explained explains describe described describes " +
    "episode episodes ep eps season seasons session sessions series podcast podcasts show shows guest guests host " +
    "hosts anyone someone something anything know find please give list get got let like want think thing things " +
    "one ones ever again way lot lots really actually whether happen happens happened happening go goes went"
  ).split(" ")
)

export interface RecognizedIntent {
  readonly intent: AskIntent
  /** Recognised people with the episodes they are in, for scoping the search. */
  readonly people: ReadonlyArray<KnownPerson>
}

export const recognizeIntent = (question: string, directory: PeopleDirectory): RecognizedIntent => {
  const words = wordsOf(question)
  const used = new Set<number>()
  const episodeNumbers: Array<number> = []
  const sessions: Array<number> = []

  /** Numbers after a marker word: "episodes 3, 4 and 7". */
  const numbersAfter = (i: number, into: Array<number>) => {
    let j = i + 1
    let found = numberAt(words, j)
    while (found !== undefined) {
      into.push(found.value)
      for (let k = i; k < j + found.length; k++) used.add(k)
      j += found.length
      // Further numbers follow a joiner ("3 and 4") or are digits ("3, 4"): "episode 3 two guests" is one number.
      const joined = listJoiners.has(words[j]?.folded ?? "") ? numberAt(words, j + 1) : undefined
      if (joined !== undefined) j += 1
      found = joined ?? (/^\d+$/.test(words[j]?.folded ?? "") ? numberAt(words, j) : undefined)
    }
  }

  words.forEach((word, i) => {
    if (episodeWords.has(word.folded)) numbersAfter(i, episodeNumbers)
    else if (sessionWords.has(word.folded)) {
      numbersAfter(i, sessions)
      const ordinal = ordinalAt(words, i - 1)
      if (ordinal !== undefined) {
        sessions.push(ordinal)
        used.add(i - 1).add(i)
      }
    } else if (question[word.start - 1] === "#" && /^\d{1,6}$/.test(word.folded)) {
      episodeNumbers.push(Number(word.folded))
      used.add(i)
    }
  })

  const people: Array<{ known: KnownPerson; at: number }> = []
  const alreadyFound = (known: KnownPerson) => people.some((found) => found.known === known)
  for (const known of directory.people) {
    for (let i = 0; i + known.words.length <= words.length; i++) {
      if (known.words.every((name, k) => words[i + k]?.folded === name)) {
        people.push({ known, at: i })
        for (let k = 0; k < known.words.length; k++) used.add(i + k)
        break
      }
    }
  }
  words.forEach((word, i) => {
    const known = directory.uniqueNames.get(word.folded)
    // A lone first or last name counts only when written as a name ("Nell", not "nell").
    const capitalised = word.text[0] !== undefined && word.text[0] !== word.text[0].toLowerCase()
    if (known !== undefined && capitalised && !used.has(i) && !alreadyFound(known)) {
      people.push({ known, at: i })
      used.add(i)
    }
  })
  people.sort((a, b) => a.at - b.at)

  const topics: Array<string> = []
  words.forEach((word, i) => {
    const topic = word.text.toLowerCase().replace(possessive, "")
    if (used.has(i) || stopwords.has(word.folded) || topic.length < 2 || topics.includes(topic)) return
    topics.push(topic)
  })

  const unique = (numbers: Array<number>) => [...new Set(numbers)]
  return {
    intent: new AskIntent({
      episodeNumbers: unique(episodeNumbers),
      sessions: unique(sessions),
      people: people.map(({ known }) => known.person),
      topics
    }),
    people: people.map(({ known }) => known)
  }
}

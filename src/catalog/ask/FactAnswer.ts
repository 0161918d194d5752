// Answers to questions about the show itself (who hosts it, who the guests were, the first or latest
// episode, how long an episode is, when it came out, how many episodes a season has, which episodes
// a person is in), written from the episode records. Every sentence says only what the records it
// cites say (the episode it names, or the first and last of a range), so nothing is made up; a named
// episode or season that does not exist is said not to exist.
import type { Episode } from "../domain/Episode.js"
import type { AskFact, AskIntent, EpisodePick } from "./AskAnswer.js"
import { CitedAnswer } from "./CitedAnswer.js"
import type { KnownPerson } from "./IntentRecognizer.js"

/** What the question is about: the whole show, whole seasons, or particular episodes. */
type Scope =
  | { readonly kind: "show" }
  | { readonly kind: "season"; readonly sessions: ReadonlyArray<number> }
  | { readonly kind: "episodes" }

export interface FactAnswer {
  readonly answer: CitedAnswer
  /** The episodes the answer is about, in the order it names them. */
  readonly episodes: ReadonlyArray<Episode>
}

const months = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]

/** "29 April 2025": publication dates are read in UTC, as the feed gives them. */
export const dateOf = (episode: Episode) => {
  const date = new Date(episode.publishedAt)
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

const counted = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`

/** "14 minutes 1 second", "1 hour 2 minutes". */
export const durationText = (seconds: number) => {
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = Math.round(seconds % 60)
  const parts = [
    hours > 0 ? counted(hours, "hour") : "",
    minutes > 0 ? counted(minutes, "minute") : "",
    rest > 0 || seconds === 0 ? counted(rest, "second") : ""
  ]
  return parts.filter((part) => part !== "").join(" ")
}

/** "A", "A and B", "A, B and C". */
const listed = (items: ReadonlyArray<string | number>) =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`

const numbered = (episode: Episode) => episode.episodeNumber > 0

/** `episode 7, “Foxing, Tears and Wheat Starch Paste”`, or the title alone for the trailer and bonus episodes. */
const nameOf = (episode: Episode) =>
  numbered(episode) ? `episode ${episode.episodeNumber}, “${episode.title}”` : `“${episode.title}”`

/** The episode as the subject of a sentence: `Episode 7, “…”,` (the title set off by commas), or `“…”`. */
const subjectOf = (episode: Episode) =>
  numbered(episode) ? `Episode ${episode.episodeNumber}, “${episode.title}”,` : `“${episode.title}”`

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`
const endsSentence = (text: string) => (/[.!?]["'”’)]?$/.test(text) ? text : `${text}.`)

const namesWith = (episode: Episode, role: string) =>
  episode.people.filter((person) => person.role === role).map((person) => person.name)

const scopeName = (scope: Scope) =>
  scope.kind === "season"
    ? `${scope.sessions.length === 1 ? "season" : "seasons"} ${listed(scope.sessions)}`
    : scope.kind === "show"
      ? "the show"
      : "these episodes"

/** " of season 2" after "the latest episode"; nothing for the whole show. */
const ofScope = (scope: Scope) => (scope.kind === "season" ? ` of ${scopeName(scope)}` : "")

/** The word for a pick in a sentence: a finished season has a last episode, the show a latest. */
const pickName = (pick: EpisodePick, scope: Scope) =>
  pick === "latest" ? (scope.kind === "season" ? "last" : "latest") : pick

interface Picked {
  readonly chosen: Episode
  /** Trailer or bonus episodes that go further than the chosen numbered one (earlier, later, longer, shorter). */
  readonly beyond: ReadonlyArray<Episode>
}

/** The one of `episodes` that `better` prefers to all others (the first of equals). */
const best = (episodes: ReadonlyArray<Episode>, better: (a: Episode, b: Episode) => boolean) =>
  episodes.reduce<Episode | undefined>(
    (top, episode) => (top === undefined || better(episode, top) ? episode : top),
    undefined
  )

/** The picked episode of `scope` (oldest first), preferring numbered episodes. */
export const pickFrom = (scope: ReadonlyArray<Episode>, pick: EpisodePick): Picked | undefined => {
  const withNumbers = scope.filter(numbered)
  const pool = withNumbers.length > 0 ? withNumbers : scope
  const unnumbered = scope.filter((episode) => !pool.includes(episode))
  const better: (a: Episode, b: Episode) => boolean =
    pick === "first"
      ? (a, b) => a.publishedAt < b.publishedAt
      : pick === "latest"
        ? (a, b) => a.publishedAt > b.publishedAt
        : pick === "longest"
          ? (a, b) => a.durationSeconds > b.durationSeconds
          : (a, b) => a.durationSeconds < b.durationSeconds
  const chosen = best(pool, better)
  if (chosen === undefined) return undefined
  const outdoing = unnumbered.filter((episode) => better(episode, chosen))
  // Every trailer or bonus before the first or after the latest; only the most extreme of the longer or shorter.
  const furthest = best(outdoing, better)
  const beyond = pick === "first" || pick === "latest" ? outdoing : furthest === undefined ? [] : [furthest]
  return { chosen, beyond }
}

/** The sentences of a fact answer, each citing an episode record, and the episodes they are about. */
class FactWriter {
  readonly answer = new CitedAnswer()
  private readonly about: Array<Episode> = []

  say(text: string, episode: Episode): void {
    this.answer.addFromEpisode(text, episode)
    if (!this.about.includes(episode)) this.about.push(episode)
  }

  get result(): FactAnswer {
    return { answer: this.answer, episodes: this.about }
  }
}

interface InQuestion {
  readonly scope: Scope
  /** Oldest first. */
  readonly episodes: ReadonlyArray<Episode>
}

/**
 * The episodes in question: those named by number, else the named seasons, else the whole show;
 * then the one the topics picked out. Undefined when that leaves nothing to say more about (the
 * named episodes or seasons do not exist, or are in other seasons: already said).
 */
const inQuestion = (
  chronological: ReadonlyArray<Episode>,
  intent: AskIntent,
  selected: Episode | undefined,
  writer: FactWriter
): InQuestion | undefined => {
  const missing = sayMissing(chronological, intent, writer.answer)
  const sessions = new Set(intent.sessions)
  const inSessions = (episode: Episode) => sessions.size === 0 || sessions.has(episode.session)
  let found: InQuestion
  if (intent.episodeNumbers.length > 0) {
    if (missing.numbers === intent.episodeNumbers.length) return undefined
    const named = chronological.filter((episode) => intent.episodeNumbers.includes(episode.episodeNumber))
    found = { scope: { kind: "episodes" }, episodes: named.filter(inSessions) }
    if (found.episodes.length === 0) {
      const asked = scopeName({ kind: "season", sessions: intent.sessions })
      for (const episode of named)
        writer.say(`${subjectOf(episode)} is in season ${episode.session}, not ${asked}.`, episode)
      return undefined
    }
  } else if (intent.sessions.length > 0) {
    if (missing.sessions === intent.sessions.length) return undefined
    const existing = intent.sessions.filter((session) => chronological.some((e) => e.session === session))
    found = { scope: { kind: "season", sessions: existing }, episodes: chronological.filter(inSessions) }
  } else found = { scope: { kind: "show" }, episodes: chronological }
  return selected === undefined
    ? found
    : {
        scope: { kind: "episodes" },
        episodes: found.episodes.filter((episode) => episode.slug === selected.slug)
      }
}

/** Answers `fact`; `all` is the catalog's episodes, newest first, as the Catalog service gives them. */
export const answerFact = (
  all: ReadonlyArray<Episode>,
  intent: AskIntent,
  fact: AskFact,
  people: ReadonlyArray<KnownPerson>,
  selected: Episode | undefined
): FactAnswer => {
  const chronological = [...all].reverse()
  const writer = new FactWriter()
  const found = inQuestion(chronological, intent, selected, writer)
  if (found === undefined) return writer.result
  let { scope, episodes } = found

  if (fact === "appearances") {
    appearances(chronological, episodes, scope, people, writer)
    return writer.result
  }
  if (fact === "seasonCount") {
    seasonCount(chronological, writer)
    return writer.result
  }
  // Hosts are in (nearly) every episode: only guests narrow the episodes.
  const guests = people.filter((known) => known.slugs.size < all.length)
  if (guests.length > 0) {
    const theirs = episodes.filter((episode) => guests.every((known) => known.slugs.has(episode.slug)))
    if (theirs.length === 0) {
      // No episode in question has them: say where they are instead.
      appearances(chronological, chronological, { kind: "show" }, guests, writer)
      return writer.result
    }
    scope = { kind: "episodes" }
    episodes = theirs
  }

  const picked = intent.pick === undefined ? undefined : pickFrom(episodes, intent.pick)
  if (picked !== undefined && intent.pick !== undefined) {
    if (fact === "episode" || fact === "published" || fact === "duration") {
      aboutPicked(fact, intent.pick, picked, scope, writer)
      return writer.result
    }
    scope = { kind: "episodes" }
    episodes = [picked.chosen]
  }
  if (episodes.length > 0) aboutEpisodes(fact, episodes, scope, writer)
  return writer.result
}

/** "The latest episode is …", with the trailer or bonus episodes that go further. */
const aboutPicked = (
  fact: "episode" | "published" | "duration",
  pick: EpisodePick,
  { chosen, beyond }: Picked,
  scope: Scope,
  writer: FactWriter
) => {
  const which = capitalised(`the ${pickName(pick, scope)} episode${ofScope(scope)}`)
  const around = () => {
    for (const other of beyond) {
      const when = other.publishedAt < chosen.publishedAt ? "before" : "after"
      writer.say(`${capitalised(nameOf(other))} came out ${when} it, on ${dateOf(other)}.`, other)
    }
  }
  switch (fact) {
    case "episode":
      writer.say(`${which} is ${nameOf(chosen)}, published on ${dateOf(chosen)}.`, chosen)
      if (chosen.subtitle.trim() !== "") writer.say(endsSentence(chosen.subtitle.trim()), chosen)
      around()
      return
    case "published":
      writer.say(`${which}, ${nameOf(chosen)}, came out on ${dateOf(chosen)}.`, chosen)
      around()
      return
    case "duration":
      if (pick === "first" || pick === "latest") {
        writer.say(`${which}, ${nameOf(chosen)}, is ${durationText(chosen.durationSeconds)} long.`, chosen)
        return
      }
      writer.say(`${which} is ${nameOf(chosen)}, at ${durationText(chosen.durationSeconds)}.`, chosen)
      for (const other of beyond) {
        const still = pick === "longest" ? "longer" : "shorter"
        const length = durationText(other.durationSeconds)
        writer.say(
          `${capitalised(nameOf(other))}, which has no episode number, is ${still} still, at ${length}.`,
          other
        )
      }
  }
}

/** The fact for each episode in question, or for a season or the show as a whole. */
const aboutEpisodes = (
  fact: Exclude<AskFact, "appearances" | "seasonCount">,
  episodes: ReadonlyArray<Episode>,
  scope: Scope,
  writer: FactWriter
) => {
  const each = scope.kind === "episodes"
  switch (fact) {
    case "hosts":
      if (!each) hosts(episodes, scope, writer)
      else for (const episode of episodes) hostsOf(episode, writer)
      return
    case "guests":
      guestsOf(episodes, scope, writer)
      return
    case "episode":
      for (const episode of episodes) {
        writer.say(
          numbered(episode)
            ? `Episode ${episode.episodeNumber} is “${episode.title}”, published on ${dateOf(episode)}.`
            : `${capitalised(nameOf(episode))} was published on ${dateOf(episode)}.`,
          episode
        )
        if (episodes.length === 1 && episode.subtitle.trim() !== "")
          writer.say(endsSentence(episode.subtitle.trim()), episode)
      }
      return
    case "duration":
      if (!each) {
        total(episodes, scope, writer)
        return
      }
      for (const episode of episodes) {
        writer.say(`${subjectOf(episode)} is ${durationText(episode.durationSeconds)} long.`, episode)
      }
      return
    case "published":
      if (!each) {
        span(episodes, scope, writer)
        return
      }
      for (const episode of episodes)
        writer.say(`${subjectOf(episode)} came out on ${dateOf(episode)}.`, episode)
      return
    case "episodeCount":
      episodeCount(episodes, scope, writer)
  }
}

/** Says that named episodes and seasons do not exist; returns how many of each were missing. */
export const sayMissing = (
  chronological: ReadonlyArray<Episode>,
  intent: AskIntent,
  answer: CitedAnswer
): { readonly numbers: number; readonly sessions: number } => {
  const withNumbers = chronological.filter(numbered)
  const highest = withNumbers.reduce<Episode | undefined>(
    (top, episode) => (top === undefined || episode.episodeNumber > top.episodeNumber ? episode : top),
    undefined
  )
  const lowest = withNumbers.reduce(
    (low, episode) => Math.min(low, episode.episodeNumber),
    Number.POSITIVE_INFINITY
  )
  const latest = chronological[chronological.length - 1]
  const seasons = [...new Set(chronological.map((episode) => episode.session))].sort((a, b) => a - b)
  const missingNumbers = intent.episodeNumbers.filter((n) => !withNumbers.some((e) => e.episodeNumber === n))
  const missingSessions = intent.sessions.filter((session) => !seasons.includes(session))
  // Each sentence cites the record that bounds what exists: the highest-numbered, or the latest, episode.
  if (highest !== undefined) {
    for (const number of missingNumbers) {
      answer.addFromEpisode(
        `There is no episode ${number}: the numbered episodes run from ${lowest} to ${highest.episodeNumber}, “${highest.title}”.`,
        highest
      )
    }
  }
  if (latest !== undefined) {
    for (const session of missingSessions) {
      answer.addFromEpisode(
        `There is no season ${session}: the show's ${seasons.length === 1 ? "season is" : "seasons are"} ${listed(seasons)}, and its latest episode, ${nameOf(latest)}, is in season ${latest.session}.`,
        latest
      )
    }
  }
  return { numbers: missingNumbers.length, sessions: missingSessions.length }
}

const hostsOf = (episode: Episode, writer: FactWriter) => {
  const names = namesWith(episode, "host")
  writer.say(
    names.length === 0
      ? `${subjectOf(episode)} names no host.`
      : `${subjectOf(episode)} is hosted by ${listed(names)}.`,
    episode
  )
}

/** The hosts of a season or the show, each cited by the latest episode they host. */
const hosts = (episodes: ReadonlyArray<Episode>, scope: Scope, writer: FactWriter) => {
  const names = [...new Set(episodes.flatMap((episode) => namesWith(episode, "host")))]
  const hostedBy = (name: string) => episodes.filter((episode) => namesWith(episode, "host").includes(name))
  const everywhere = names.filter((name) => hostedBy(name).length === episodes.length)
  const latest = episodes[episodes.length - 1]
  if (everywhere.length > 0 && latest !== undefined) {
    writer.say(
      `${listed(everywhere)} ${everywhere.length === 1 ? "hosts" : "host"} ${scopeName(scope)}, all ${episodes.length} of its episodes up to the latest, ${nameOf(latest)} (${dateOf(latest)}).`,
      latest
    )
  }
  for (const name of names.filter((name) => !everywhere.includes(name))) {
    const theirs = hostedBy(name)
    const last = theirs[theirs.length - 1]
    if (last === undefined) continue
    writer.say(
      `${name} hosts ${theirs.length} of the ${episodes.length} episodes of ${scopeName(scope)}, most recently ${nameOf(last)} (${dateOf(last)}).`,
      last
    )
  }
}

/** One episode's guests, with its hosts when it is the only episode asked about. */
const guestSentence = (episode: Episode, withHosts: boolean) => {
  const guests = namesWith(episode, "guest")
  const hostNames = namesWith(episode, "host")
  const name = subjectOf(episode)
  if (!withHosts) return `${name} had ${guests.length === 0 ? "no guest" : listed(guests)}.`
  const hostsPart = hostNames.length === 0 ? "" : `, with the hosts ${listed(hostNames)}`
  if (guests.length === 0)
    return `${name} had no guest${hostNames.length === 0 ? "" : `: only the hosts, ${listed(hostNames)}`}.`
  if (guests.length === 1) return `${name} had one guest, ${guests[0]}${hostsPart}.`
  return `${name} had ${guests.length} guests, ${listed(guests)}${hostsPart}.`
}

const guestsOf = (episodes: ReadonlyArray<Episode>, scope: Scope, writer: FactWriter) => {
  const everyone = [...new Set(episodes.flatMap((episode) => namesWith(episode, "guest")))]
  const lead = `${capitalised(scopeName(scope))} ${scope.kind === "show" ? "has had" : "had"} ${counted(everyone.length, "different guest")}`
  if (scope.kind === "show") {
    // Each guest once, at their first episode.
    const firsts = new Map<Episode, Array<string>>()
    const seen = new Set<string>()
    for (const episode of episodes) {
      const newcomers = namesWith(episode, "guest").filter((name) => !seen.has(name))
      for (const name of newcomers) seen.add(name)
      if (newcomers.length > 0) firsts.set(episode, newcomers)
    }
    ;[...firsts].forEach(([episode, names], i) => {
      const sentence = `${listed(names)} first came on in ${nameOf(episode)}.`
      writer.say(i === 0 ? `${lead}: ${sentence}` : sentence, episode)
    })
    return
  }
  const only = episodes.length === 1 ? episodes[0] : undefined
  if (only !== undefined) {
    writer.say(guestSentence(only, true), only)
    return
  }
  episodes.forEach((episode, i) => {
    const sentence = guestSentence(episode, false)
    const lowered = sentence.startsWith("Episode ") ? `e${sentence.slice(1)}` : sentence
    writer.say(i === 0 && scope.kind === "season" ? `${lead}: ${lowered}` : sentence, episode)
  })
}

/** The episodes each person is in, oldest first; hosts of every episode as a range. */
const appearances = (
  chronological: ReadonlyArray<Episode>,
  episodes: ReadonlyArray<Episode>,
  scope: Scope,
  people: ReadonlyArray<KnownPerson>,
  writer: FactWriter
) => {
  for (const known of people) {
    const name = known.person.name
    const inScope = episodes.filter((episode) => known.slugs.has(episode.slug))
    const pool = inScope.length > 0 ? episodes : chronological
    const theirs = pool.filter((episode) => known.slugs.has(episode.slug))
    const first = theirs[0]
    const last = theirs[theirs.length - 1]
    if (first === undefined || last === undefined) continue
    const role = first.people.find((person) => person.name === name)?.role ?? known.person.role
    const where = inScope.length > 0 && scope.kind === "season" ? ` of ${scopeName(scope)}` : ""
    // Asked about a season they are not in: say so, then where they are.
    const subject =
      inScope.length === 0 && scope.kind !== "show"
        ? `${name} is in no episode of ${scopeName(scope)}, but`
        : name
    const verb = role === "host" ? "hosts" : `is ${/^[aeiou]/.test(role) ? "an" : "a"} ${role} in`
    if (theirs.length > 2 && theirs.length === pool.length) {
      range(theirs, `${subject} ${verb} all ${theirs.length} episodes${where}`, writer)
      continue
    }
    const count = `${subject} ${verb} ${counted(theirs.length, "episode")}${where}`
    if (theirs.length === 1) {
      writer.say(`${count}: ${nameOf(first)}, published on ${dateOf(first)}.`, first)
      continue
    }
    writer.say(`${count}, first in ${nameOf(first)}, published on ${dateOf(first)}.`, first)
    for (const episode of theirs.slice(1))
      writer.say(`Then in ${nameOf(episode)}, published on ${dateOf(episode)}.`, episode)
  }
}

/** `lead` over a range of episodes, its first and last each cited where they are named. */
const range = (episodes: ReadonlyArray<Episode>, lead: string, writer: FactWriter) => {
  const first = episodes[0]
  const last = episodes[episodes.length - 1]
  if (first === undefined || last === undefined) return
  if (first === last) {
    writer.say(`${lead}: ${nameOf(first)}, published on ${dateOf(first)}.`, first)
    return
  }
  writer.say(`${lead}, from ${nameOf(first)} (${dateOf(first)})`, first)
  writer.say(`to ${nameOf(last)} (${dateOf(last)}).`, last)
}

const total = (episodes: ReadonlyArray<Episode>, scope: Scope, writer: FactWriter) => {
  const seconds = episodes.reduce((sum, episode) => sum + episode.durationSeconds, 0)
  const average = Math.round(seconds / Math.max(episodes.length, 1))
  range(
    episodes,
    `The ${counted(episodes.length, "episode")} of ${scopeName(scope)} last ${durationText(seconds)} in all, ${durationText(average)} on average`,
    writer
  )
}

const span = (episodes: ReadonlyArray<Episode>, scope: Scope, writer: FactWriter) => {
  const first = episodes[0]
  const last = episodes[episodes.length - 1]
  if (first === undefined || last === undefined) return
  writer.say(`${capitalised(scopeName(scope))} began on ${dateOf(first)} with ${nameOf(first)}.`, first)
  if (last !== first) {
    const its = scope.kind === "show" ? "Its latest episode" : "Its last episode"
    writer.say(`${its}, ${nameOf(last)}, came out on ${dateOf(last)}.`, last)
  }
}

const episodeCount = (episodes: ReadonlyArray<Episode>, scope: Scope, writer: FactWriter) => {
  const numbers = episodes
    .filter(numbered)
    .map((episode) => episode.episodeNumber)
    .sort((a, b) => a - b)
  const low = numbers[0]
  const high = numbers[numbers.length - 1]
  const contiguous = low !== undefined && high !== undefined && high - low + 1 === numbers.length
  const numberRange = contiguous && numbers.length > 1 ? ` (${low} to ${high})` : ""
  const numberedPart =
    numbers.length === episodes.length
      ? numberRange
      : numbers.length === 0
        ? ", none of them numbered"
        : `, ${numbers.length} of them numbered${numberRange}`
  const lead = `${capitalised(scopeName(scope))} ${scope.kind === "episodes" ? "are" : "has"} ${counted(episodes.length, "episode")}${numberedPart}`
  const first = episodes[0]
  const last = episodes[episodes.length - 1]
  if (first === undefined || last === undefined) return
  if (first === last) {
    writer.say(`${lead}: ${nameOf(first)}, published on ${dateOf(first)}.`, first)
    return
  }
  writer.say(`${lead}; the first, ${nameOf(first)}, came out on ${dateOf(first)}.`, first)
  writer.say(
    `The ${scope.kind === "show" ? "latest" : "last"}, ${nameOf(last)}, came out on ${dateOf(last)}.`,
    last
  )
}

const seasonCount = (chronological: ReadonlyArray<Episode>, writer: FactWriter) => {
  const seasons = [...new Set(chronological.map((episode) => episode.session))].sort((a, b) => a - b)
  seasons.forEach((session, i) => {
    const theirs = chronological.filter((episode) => episode.session === session)
    const first = theirs[0]
    if (first === undefined) return
    const sentence = `season ${session} has ${counted(theirs.length, "episode")} and began on ${dateOf(first)} with ${nameOf(first)}.`
    writer.say(
      i === 0 ? `The show has ${counted(seasons.length, "season")}: ${sentence}` : capitalised(sentence),
      first
    )
  })
}

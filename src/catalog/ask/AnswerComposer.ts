// The extractive answer: whole sentences taken from the transcript paragraphs and episode
// descriptions that were found, the one matching most topic words from each, every sentence
// followed by `[n]` for its citation. Nothing is written that the catalog does not say.
import type { CatalogService } from "../Catalog.js"
import type { TranscriptHit } from "../domain/Collections.js"
import type { Episode } from "../domain/Episode.js"
import { tokenize } from "../SearchOptions.js"
import { type AskComposition, type AskIntent, Citation } from "./AskAnswer.js"
import { CitedAnswer } from "./CitedAnswer.js"

/** Enough to answer, few enough to read. */
const maxSentences = 4
const maxFromHits = 3
const maxFromEpisodes = 2

/** Splits at a full stop, question or exclamation mark followed by space and a capital or digit. */
const sentencesOf = (text: string): Array<string> =>
  text
    .split(/(?<=[.!?]["'”’)]?)\s+(?=["'“‘(]?[\p{Lu}\p{N}])/u)
    .map((sentence) => sentence.replace(/\s+/g, " ").trim())
    .filter((sentence) => sentence.length > 0)

/** The sentence with most of `terms` (the first on a tie), and how many it has. */
const bestSentence = (
  text: string,
  terms: ReadonlySet<string>
): { sentence: string; score: number } | undefined => {
  let best: { sentence: string; score: number } | undefined
  for (const sentence of sentencesOf(text)) {
    const score = new Set(tokenize(sentence).filter((term) => terms.has(term))).size
    if (best === undefined || score > best.score) best = { sentence, score }
  }
  return best
}

/** Square brackets are kept for citation markers; a stage direction such as [laughter] becomes (laughter). */
const clean = (sentence: string) => {
  const text = sentence.replace(/\[/g, "(").replace(/\]/g, ")")
  return /[.!?]["'”’)]?$/.test(text) ? text : `${text}.`
}

/**
 * Adds the extracts to `answer` (which may already hold sentences, such as a note that a named
 * episode does not exist) and returns the whole composition.
 */
export const composeAnswer = (
  catalog: CatalogService,
  intent: AskIntent,
  episodes: ReadonlyArray<Episode>,
  hits: ReadonlyArray<TranscriptHit>,
  answer: CitedAnswer = new CitedAnswer()
): AskComposition => {
  const topicTerms = intent.topics.flatMap((topic) => tokenize(topic))
  // Sentences are chosen for the topics and for the people the question names.
  const terms = new Set([...topicTerms, ...intent.people.flatMap((person) => tokenize(person.name))])
  let sentences = 0
  const add = (sentence: string, citation: Citation, key: string) => {
    if (sentences >= maxSentences || answer.cites(key)) return
    sentences += 1
    answer.add(clean(sentence), key, () => citation)
  }

  // With topics, what was said is the most precise answer; without, the episodes are.
  const fromHits = topicTerms.length === 0 ? [] : hits.slice(0, maxFromHits)
  for (const hit of fromHits) {
    const paragraph = catalog.transcriptRecord(hit.slug)?.paragraphs[hit.paragraphIndex]
    const sentence = paragraph === undefined ? undefined : bestSentence(paragraph.text, terms)?.sentence
    if (sentence === undefined) continue
    add(
      hit.speaker === null ? sentence : `${hit.speaker}: ${sentence}`,
      new Citation({
        slug: hit.slug,
        title: hit.title,
        paragraphIndex: hit.paragraphIndex,
        ...(hit.startSeconds === null ? {} : { startSeconds: hit.startSeconds }),
        url: hit.links.transcript
      }),
      `${hit.slug}#${hit.paragraphIndex}`
    )
  }
  const citedEpisodes = new Set(fromHits.map((hit) => hit.slug))
  const episodeSentences = topicTerms.length === 0 ? maxSentences : maxFromEpisodes
  const uncited = episodes.filter((episode) => !citedEpisodes.has(episode.slug))
  for (const episode of uncited.slice(0, episodeSentences)) {
    // The description's sentence that names what was asked about, else the episode's own summary line.
    const found = bestSentence(episode.description, terms)
    const sentence = found !== undefined && found.score > 0 ? found.sentence : episode.subtitle
    if (sentence.trim() === "") continue
    add(
      sentence,
      new Citation({ slug: episode.slug, title: episode.title, url: episode.links.api }),
      episode.slug
    )
  }
  return answer.composition
}

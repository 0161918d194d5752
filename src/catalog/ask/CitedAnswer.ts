// An answer under construction: sentences, each followed by the marker `[n]` of its citation, and
// the citations in the order they were first used. A source cited twice keeps its first number.

import type { Episode } from "../domain/Episode.js"
import { AskComposition, Citation } from "./AskAnswer.js"

export class CitedAnswer {
  private readonly citations: Array<Citation> = []
  private readonly markers = new Map<string, number>()
  private readonly parts: Array<string> = []

  /** Whether the source named `key` is cited already. */
  cites(key: string): boolean {
    return this.markers.has(key)
  }

  /** Adds `text` (a sentence, or a clause that ends where its source's marker belongs) and its marker. */
  add(text: string, key: string, citation: () => Citation): void {
    let marker = this.markers.get(key)
    if (marker === undefined) {
      this.citations.push(citation())
      marker = this.citations.length
      this.markers.set(key, marker)
    }
    this.parts.push(`${text} [${marker}]`)
  }

  /** Adds `text` citing an episode record (its detail in this API). */
  addFromEpisode(text: string, episode: Episode): void {
    this.add(
      text,
      episode.slug,
      () => new Citation({ slug: episode.slug, title: episode.title, url: episode.links.api })
    )
  }

  get composition(): AskComposition {
    return new AskComposition({ answer: this.parts.join(" "), citations: [...this.citations] })
  }
}

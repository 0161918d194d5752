// Transcripts read from the verified snapshot bytes on demand: what search needs of each (its
// paragraphs, parsed once and kept, their terms numbered in the catalog's ParagraphTerms), and the
// full transcript record (decoded with its schema, the most recent few kept).
import * as Schema from "effect/Schema"
import type { SnapshotManifest } from "../domain/Manifest.js"
import type { SearchData } from "../domain/SearchData.js"
import { type Transcript, TranscriptDetail } from "../domain/Transcript.js"
import { makeLruCache } from "../LruCache.js"
import { withOrigin } from "./OriginBytes.js"
import { makeParagraphTerms, type ParagraphTerms } from "./ParagraphTerms.js"
import type { VerifiedFiles } from "./VerifiedFiles.js"

/** What search needs of one paragraph. */
export interface ParagraphRecord {
  readonly speaker: string | null
  readonly startSeconds: number | null
  readonly text: string
}

/** What search needs of one transcript. */
export interface TranscriptRecord {
  readonly slug: string
  readonly paragraphs: ReadonlyArray<ParagraphRecord>
}

export interface TranscriptRecords {
  readonly record: (slug: string) => TranscriptRecord | undefined
  readonly transcript: (slug: string) => Transcript | undefined
  /** Every paragraph's terms, a transcript's filled when its record is read. */
  readonly paragraphTerms: ParagraphTerms
}

export const makeTranscriptRecords = (
  manifest: SnapshotManifest,
  files: VerifiedFiles,
  origin: string,
  searchData: SearchData
): TranscriptRecords => {
  const statistics = searchData.statistics
  // Count tables for the terms in at least one paragraph in 64: on the corpus 292 terms, 32 MB, and
  // an uncached search a sixth faster (one in 16: 90 terms, a tenth; one in 128: 518, a fifth).
  const tabledFrom = statistics.paragraphs / 64
  const paragraphTerms = makeParagraphTerms(
    statistics.paragraphTerms,
    (term) => (statistics.documentFrequency[term] ?? 0) >= tabledFrom
  )
  const firstId = new Map<string, number>()
  let next = 0
  for (const [slug, count] of searchData.transcripts) {
    firstId.set(slug, next)
    next += count
  }
  // Search reads paragraphs of many transcripts per query: they are parsed once, on first use (and
  // all of them soon after start-up by the catalog's warm-up), without the schema's validation,
  // which the build step and the hash check already stand for.
  const records = new Map<string, TranscriptRecord>()
  const record = (slug: string): TranscriptRecord | undefined => {
    const known = records.get(slug)
    if (known !== undefined) return known
    const path = manifest.transcripts[slug]
    if (path === undefined) return undefined
    const json = JSON.parse(files.file(path).toString("utf8")) as {
      data: { paragraphs: Array<{ speaker: string | null; startSeconds: number | null; text: string }> }
    }
    const parsed = {
      slug,
      paragraphs: json.data.paragraphs.map((p) => ({
        speaker: p.speaker,
        startSeconds: p.startSeconds,
        text: p.text
      }))
    }
    const first = firstId.get(slug)
    if (first !== undefined)
      paragraphTerms.fill(
        first,
        parsed.paragraphs.map((p) => p.text)
      )
    records.set(slug, parsed)
    return parsed
  }

  const decodeTranscript = Schema.decodeUnknownSync(TranscriptDetail)
  // A handful of recent transcripts is enough to make repeated reads cheap.
  const recent = makeLruCache<Transcript>(32)
  const transcript = (slug: string): Transcript | undefined => {
    const cached = recent.get(slug)
    if (cached) return cached
    const path = manifest.transcripts[slug]
    if (path === undefined) return undefined
    const decoded = decodeTranscript(JSON.parse(withOrigin(files.file(path), origin).toString("utf8"))).data
    recent.set(slug, decoded)
    return decoded
  }

  return { record, transcript, paragraphTerms }
}

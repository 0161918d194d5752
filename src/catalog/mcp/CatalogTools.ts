// The four tools of the catalog MCP server (`/mcp`, catalog-extensions §7): the REST reads, answered
// by the same CatalogReads, with the catalog's Schema classes as input and output schemas. Three of
// them have the catalog's view (CatalogView.ts) for hosts that show MCP Apps.
import * as Either from "effect/Either"
import { maxCharactersBounds, pageSizeBounds } from "../CatalogLimits.js"
import type { CatalogReadsService } from "../CatalogReads.js"
import { EpisodeSearchRequest, LenientSlugField, TranscriptSearchRequest } from "../CatalogRequests.js"
import { EpisodePage, TranscriptHitPage } from "../domain/Collections.js"
import { EpisodeDetail } from "../domain/Episode.js"
import { requestOf } from "../RequestStruct.js"
import { catalogViewUri } from "./CatalogView.js"
import { makeTool } from "./McpTool.js"
import { episodePageText, episodeText, excerptText, hitPageText } from "./ToolText.js"
import { excerptOf, TranscriptExcerpt, TranscriptExcerptRequest } from "./TranscriptExcerpt.js"

const EpisodeToolRequest = requestOf({ slug: LenientSlugField }, "One episode by slug.")

/** How the page size reads in a tool's description. */
const pages = `\`limit\` (${pageSizeBounds.minimum}-${pageSizeBounds.maximum}, default ${pageSizeBounds.default})`

export const catalogTools = (reads: CatalogReadsService) => [
  makeTool({
    name: "search_episodes",
    title: "Search episodes",
    description:
      "Search the podcast's episodes by words in their title, people, subtitle, description and show notes, " +
      "ranked by relevance; without a query, list episodes newest first. Filter by session (season). " +
      `Pages of ${pages}; pass \`nextCursor\` back as \`cursor\` with the same query for the next page.`,
    input: EpisodeSearchRequest,
    output: EpisodePage,
    run: reads.searchEpisodes,
    render: episodePageText,
    view: catalogViewUri
  }),
  makeTool({
    name: "get_episode",
    title: "Get an episode",
    description:
      "One episode by slug (its number as text; bonus episodes and the trailer have negative slugs): " +
      "description, show notes, people, chapters, audio and links, and whether a transcript is available.",
    input: EpisodeToolRequest,
    output: EpisodeDetail,
    run: ({ slug }) => reads.episode(slug),
    render: episodeText,
    view: catalogViewUri
  }),
  makeTool({
    name: "search_transcripts",
    title: "Search transcripts",
    description:
      "Search the text of the episodes' transcripts: paragraphs ranked by relevance, each with the episode slug, " +
      "paragraph index, speaker, start time, a snippet with highlight offsets and a link into the audio at that moment. " +
      `\`query\` needs a word of two or more letters or digits. Pages of ${pages} with \`cursor\`.`,
    input: TranscriptSearchRequest,
    output: TranscriptHitPage,
    run: reads.searchTranscripts,
    render: hitPageText,
    view: catalogViewUri
  }),
  makeTool({
    name: "get_transcript",
    title: "Get a transcript",
    description:
      `The transcript of one episode, its text cut to \`max_characters\` (1-${maxCharactersBounds.maximum}, ` +
      `default ${maxCharactersBounds.default}); \`truncated\` says whether it was cut and \`totalCharacters\` gives the full length. ` +
      "Not every episode has a transcript: get_episode tells (transcriptAvailable).",
    input: TranscriptExcerptRequest,
    output: TranscriptExcerpt,
    run: ({ slug, max_characters }) =>
      Either.map(reads.transcript(slug), (detail) =>
        excerptOf(detail.data, max_characters ?? maxCharactersBounds.default)
      ),
    render: excerptText
  })
]

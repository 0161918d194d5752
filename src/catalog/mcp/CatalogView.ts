// The catalog's MCP App (catalog-extensions §13): one `ui://` resource, `text/html;profile=mcp-app`,
// that get_episode, search_episodes and search_transcripts name as their view. It shows an episode
// as a card (title, season and number, date, people, show notes, chapters, the audio) and search
// results as lists, a transcript passage with its highlights and a player that starts at the
// paragraph. Its data arrives from the host as tool results, never in the document, so the document
// is the same for every request: built once per loaded snapshot, served from memory.
//
// It loads nothing but the feed's audio: `_meta.ui.csp` asks the host for exactly the audio hosts
// (media), and the document's own policy allows its one script and stylesheet (by hash) besides.
import { createHash } from "node:crypto"
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server"
import type { Episode } from "../domain/Episode.js"
import { catalogViewScript } from "./CatalogViewScript.js"
import { catalogViewStyle } from "./CatalogViewStyle.js"
import type { McpResource } from "./ToolServer.js"

/** The view's URI, which the three tools name (`_meta.ui.resourceUri`). */
export const catalogViewUri = "ui://podcast-catalog/episodes.html"

/** Where the feed's audio lives: the origins of the episodes' audio files, sorted. */
export const audioOrigins = (episodes: ReadonlyArray<Episode>): ReadonlyArray<string> =>
  [...new Set(episodes.map((episode) => new URL(episode.audio.url).origin))].sort()

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`

/** The document: its policy (a meta element, which a host keeps when it writes the document) first. */
export const catalogViewDocument = (audio: ReadonlyArray<string>): string => {
  const policy = [
    "default-src 'none'",
    `script-src ${sha256(catalogViewScript)}`,
    `style-src ${sha256(catalogViewStyle)}`,
    `media-src ${audio.length === 0 ? "'none'" : audio.join(" ")}`,
    "base-uri 'none'",
    "form-action 'none'"
  ].join("; ")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Podcast catalog</title>
<style>${catalogViewStyle}</style>
</head>
<body>
<main id="view"><p class="note" role="status">Waiting for the tool's answer…</p></main>
<script>${catalogViewScript}</script>
</body>
</html>
`
}

/** The view as a resource of a server over `episodes` (the loaded snapshot's). */
export const catalogView = (episodes: ReadonlyArray<Episode>): McpResource => {
  const audio = audioOrigins(episodes)
  const text = catalogViewDocument(audio)
  // What the host's sandbox may load: the audio (media), nothing to connect to, no frames.
  const _meta = {
    ui: {
      csp: { connectDomains: [], resourceDomains: [...audio], frameDomains: [], baseUriDomains: [] },
      prefersBorder: true
    }
  }
  return {
    resource: {
      uri: catalogViewUri,
      name: "episodes.html",
      title: "Episodes and transcript passages",
      description:
        "The view of get_episode, search_episodes and search_transcripts for hosts that show MCP Apps: an episode card " +
        "with its audio and chapters, result lists with paging, transcript passages with their highlights played from " +
        "the paragraph's start.",
      mimeType: RESOURCE_MIME_TYPE,
      size: Buffer.byteLength(text),
      _meta
    },
    contents: { contents: [{ uri: catalogViewUri, mimeType: RESOURCE_MIME_TYPE, text, _meta }] }
  }
}

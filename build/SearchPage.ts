// The snapshot's search page (catalog-extensions §6, "Search with no server"): `index.html` at the
// snapshot's root and its assets in `search/page.<hash>/`, a folder named by a hash of what it holds:
// the snapshot reader's browser build (bundled here from packages/snapshot-reader, as
// `npm run build -w @podcast-platform/snapshot-reader` bundles dist/browser.js), the page's script
// (build/search-page/, which imports the reader as `./reader.js`) and its stylesheet. Everything the
// page loads is in the folder: its Content-Security-Policy allows nothing else but the publisher's
// audio, which the player fetches only when played.
import { readFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { build, type Plugin, transform } from "esbuild"
import { readerBundleOptions } from "../packages/snapshot-reader/bundle.js"
import { html, toDocument } from "../src/http/pages/Html.js"
import type { StagedSnapshot } from "./SnapshotWriter.js"

const sources = join(dirname(fileURLToPath(import.meta.url)), "search-page")

/** The page's file at the snapshot's root. */
export const searchPagePath = "index.html"

/** The page's script imports the reader from the file beside it, not a copy bundled in. */
const readerBesideIt: Plugin = {
  name: "reader-beside-it",
  setup: (plugin) => {
    plugin.onResolve({ filter: /^@podcast-platform\/snapshot-reader$/ }, () => ({
      path: "./reader.js",
      external: true
    }))
  }
}

const bundled = async (options: Parameters<typeof build>[0]): Promise<string> => {
  const result = await build({ ...options, write: false, outfile: "out.js" })
  const [file] = result.outputFiles ?? []
  if (file === undefined) throw new Error("esbuild wrote nothing")
  return file.text
}

const policy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  // The publisher's audio: the one thing not in the snapshot, fetched only when played.
  "media-src http: https:",
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'"
].join("; ")

/** The page's markup; `assets` is the folder of its script and stylesheet, `title` the show's. */
const pageHtml = (assets: string, title: string) =>
  toDocument(html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}: search</title>
<link rel="stylesheet" href="${assets}/style.css">
<link rel="modulepreload" href="${assets}/reader.js">
<script type="module" src="${assets}/app.js"></script>
</head>
<body>
<header class="site">
<h1>${title}</h1>
<p class="intro">Search every episode and transcript of the show, here in your browser.</p>
<form id="search" role="search">
<label for="q">Search episodes and transcripts</label>
<input id="q" name="q" type="search" autocomplete="off" spellcheck="false" autofocus aria-describedby="keys">
<button type="submit">Search</button>
</form>
<p id="keys" class="keys"><kbd>↓</kbd> and <kbd>↑</kbd> move through the results, <kbd>Enter</kbd> opens one, <kbd>Esc</kbd> goes back, <kbd>/</kbd> returns here.</p>
</header>
<main>
<p id="status" role="status">Loading the catalog…</p>
<noscript><p>This search runs in your browser: it needs JavaScript.</p></noscript>
<div id="results">
<section aria-labelledby="episodes-heading">
<h2 id="episodes-heading">Episodes</h2>
<ol id="episode-results" class="results"></ol>
<button id="more-episodes" type="button" hidden>More episodes</button>
</section>
<section id="transcripts" aria-labelledby="transcripts-heading" hidden>
<h2 id="transcripts-heading">In the transcripts</h2>
<ol id="transcript-results" class="results"></ol>
<button id="more-transcripts" type="button" hidden>More passages</button>
</section>
</div>
<article id="episode" aria-labelledby="episode-title" hidden></article>
</main>
</body>
</html>
`)

/** Writes the page and its assets into the staged snapshot; returns the assets' folder. */
export const writeSearchPage = async (staged: StagedSnapshot, title: string): Promise<string> => {
  const common = { bundle: true, format: "esm", platform: "browser", target: "es2022", minify: true } as const
  const [reader, app, css] = await Promise.all([
    bundled(readerBundleOptions("browser")),
    bundled({
      ...common,
      entryPoints: [join(sources, "app.ts")],
      plugins: [readerBesideIt],
      logLevel: "warning"
    }),
    readFile(join(sources, "style.css"), "utf8").then(
      async (text) => (await transform(text, { loader: "css", minify: true })).code
    )
  ])
  const folder = await staged.writeSearchFolder("page", [
    ["reader.js", reader],
    ["app.js", app],
    ["style.css", css]
  ])
  await staged.writeSearchFile(searchPagePath, pageHtml(folder, title))
  return folder
}

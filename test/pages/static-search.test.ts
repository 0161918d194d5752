// The snapshot's search page (catalog-extensions §6, "Search with no server"), used as a person would:
// the demo snapshot built from content/ and served by a plain static server on loopback, with no
// service running, in Debian's Chromium. A query shows what the snapshot reader answers for it (the
// same episodes and passages, in the same order, with the same snippets and highlights); the
// keyboard alone opens a passage's episode, whose view shows its show notes, people and chapters and
// whose player starts at the passage's paragraph; nothing is requested outside the static server's
// origin; axe finds no serious or critical issue. Screenshots go to .tmp/screenshots/static-search-* with SCREENSHOTS=1.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "@effect/vitest"
import { openSnapshot, type SnapshotReader } from "@podcast-platform/snapshot-reader"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Browser, Page } from "playwright-core"
import { passagesPerPage } from "../../build/search-page/Paging.js"
import { bundleReader } from "../../packages/snapshot-reader/bundle.js"
import { browserUnavailable, launchBrowser, newContext } from "../support/Browser.js"
import { buildContentSnapshot } from "../support/ContentTestServer.js"
import { describeNeeding } from "../support/Needs.js"
import { type StaticHost, staticHost } from "../support/StaticHost.js"
import { tempDir } from "../support/TempDir.js"
import { photograph } from "./support/Console.js"

interface Site {
  readonly directory: string
  readonly host: StaticHost
  readonly browser: Browser
  /** The reader over the same folder, read from disk: what the page must show. */
  readonly reader: SnapshotReader
}

class SearchSite extends Context.Tag("SearchSite")<SearchSite, Site>() {}

const searchSite = Layer.scoped(
  SearchSite,
  Effect.gen(function* () {
    const directory = yield* buildContentSnapshot
    const host = yield* staticHost(directory)
    const browser = yield* launchBrowser
    const reader = yield* Effect.promise(() => openSnapshot(directory))
    return { directory, host, browser, reader }
  })
).pipe(Layer.orDie)

/** A query of the demo whose passages include timed paragraphs of episodes with notes, people and chapters. */
const query = "globe"

/** The page at the folder's root in a fresh context, recording requests and anything that failed. */
const openPage = (site: Site) =>
  Effect.gen(function* () {
    const { context, requests } = yield* newContext(site.browser)
    const page = yield* Effect.promise(() => context.newPage())
    const failures: Array<string> = []
    page.on("response", (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`)
    })
    page.on("pageerror", (error) => failures.push(`page error: ${error.message}`))
    page.on("console", (message) => {
      if (message.type() === "error") failures.push(`console: ${message.text()}`)
    })
    const response = yield* Effect.promise(() => page.goto(site.host.url))
    expect(response?.status()).toBe(200)
    yield* Effect.promise(() => page.waitForSelector("html[data-ready=true]"))
    return { page, requests, failures }
  })

const run = <A>(work: () => Promise<A>) => Effect.promise(work)

/** Types `q` into the focused search box and waits for the answer's status. */
const searchFor = (page: Page, q: string) =>
  run(async () => {
    await page.keyboard.type(q)
    // Locators, not waitForFunction: the page's Content-Security-Policy refuses the eval it uses.
    await page.locator("#status", { hasText: `“${q}”` }).waitFor()
  })

const activeHref = (page: Page) =>
  run(() =>
    page.evaluate<string | null>("document.activeElement && document.activeElement.getAttribute('href')")
  )

/** The requests that left the static server's origin. */
const offOrigin = (requests: ReadonlyArray<string>, origin: string) =>
  requests.filter(
    (url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("about:")
  )

/** The address a passage's result links to, as the page writes it. */
const passageHash = (q: string, slug: string, start: number) =>
  `#${new URLSearchParams({ q, episode: slug, t: String(start) }).toString()}`

describeNeeding(browserUnavailable)("the snapshot's search page, from a static server", () => {
  it.layer(searchSite, { timeout: 180_000 })((it) => {
    it.effect(
      "shows the reader's episodes and transcript passages for a query, in its order, with its snippets and highlights",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const site = yield* SearchSite
            const { page, requests, failures } = yield* openPage(site)
            // The search box has focus; before a query, the newest episodes.
            expect(yield* run(() => page.evaluate<string>("document.activeElement.id"))).toBe("q")
            const newest = yield* run(() => site.reader.searchEpisodes({}))
            expect(yield* run(() => page.locator("#episode-results a.result").allTextContents())).toEqual(
              newest.data.map((episode) => episode.title)
            )

            yield* searchFor(page, query)
            const [episodes, hits] = yield* run(() =>
              Promise.all([
                site.reader.searchEpisodes({ q: query }),
                site.reader.searchTranscripts({ q: query, limit: passagesPerPage })
              ])
            )
            expect(episodes.data.length).toBeGreaterThan(0)
            expect(hits.data.length).toBeGreaterThan(1)
            expect(yield* run(() => page.locator("#episode-results a.result").allTextContents())).toEqual(
              episodes.data.map((episode) => episode.title)
            )
            const passages = () =>
              run(() =>
                page.locator("#transcript-results li").evaluateAll((items) =>
                  items.map((item) => ({
                    title: item.querySelector("a.result")?.textContent,
                    snippet: item.querySelector(".snippet")?.textContent,
                    marks: [...item.querySelectorAll("mark")].map((mark) => mark.textContent)
                  }))
                )
              )
            const expected = (data: typeof hits.data) =>
              data.map((hit) => ({
                title: hit.title,
                snippet: hit.snippet,
                marks: hit.highlights.map(([start, end]) => hit.snippet.slice(start, end))
              }))
            expect(hits.data[0]?.highlights.length).toBeGreaterThan(0)
            expect(yield* passages()).toEqual(expected(hits.data))
            const status = yield* run(() => page.locator("#status").textContent())
            expect(status).toContain(`${episodes.total} episode`)
            expect(status).toContain(`${hits.total} transcript passage`)

            // The next page of passages, appended: the reader's next page.
            expect(hits.nextOffset, `"${query}" finds more than a page of passages`).not.toBeNull()
            if (hits.nextOffset !== null) {
              const next = yield* run(() =>
                site.reader.searchTranscripts({
                  q: query,
                  offset: hits.nextOffset ?? 0,
                  limit: passagesPerPage
                })
              )
              yield* run(() => page.getByRole("button", { name: "More passages" }).click())
              yield* run(() =>
                page
                  .locator("#transcript-results li")
                  .nth(hits.data.length + next.data.length - 1)
                  .waitFor()
              )
              expect(yield* passages()).toEqual(expected([...hits.data, ...next.data]))
            }

            // Snippets are text: markup in a query or a snippet never becomes an element.
            expect(yield* run(() => page.locator("#transcript-results .snippet *:not(mark)").count())).toBe(0)

            yield* photograph(page, "static-search-results")

            // The page ran the reader's browser build, as `npm run build -w` makes it, from the folder.
            const assets = readdirSync(join(site.directory, "search")).filter((name) =>
              name.startsWith("page.")
            )
            expect(assets).toHaveLength(1)
            const built = join(tempDir("reader-bundle-"), "browser.js")
            yield* run(() => bundleReader(built, "browser"))
            expect(readFileSync(join(site.directory, "search", assets[0] ?? "", "reader.js"), "utf8")).toBe(
              readFileSync(built, "utf8")
            )
            expect(requests).toContain(`${site.host.origin}/search/${assets[0]}/reader.js`)
            // Only the shards and blocks the queries needed: far fewer than the folder holds.
            const shardReads = requests.filter((url) => url.includes("/search/") && url.endsWith(".json.gz"))
            expect(shardReads.length).toBeGreaterThan(2)
            expect(shardReads.length).toBeLessThan(
              readdirSync(join(site.directory, "search"), { recursive: true }).length / 4
            )

            // The episode results came from the search's description: no episode's own file was read.
            expect(requests.filter((url) => /\/episodes\/-?[0-9]+\.[0-9a-f]{16}\.json/.test(url))).toEqual([])
            expect(offOrigin(requests, site.host.origin)).toEqual([])
            expect(failures).toEqual([])
          })
        )
    )

    it.effect(
      "opens a passage's episode with the keyboard alone: notes, people, chapters, the player at the paragraph; Esc goes back",
      () =>
        Effect.scoped(
          Effect.gen(function* () {
            const site = yield* SearchSite
            const [episodes, hits] = yield* run(() =>
              Promise.all([
                site.reader.searchEpisodes({ q: query }),
                site.reader.searchTranscripts({ q: query, limit: passagesPerPage })
              ])
            )
            // The first passage with a time, in an episode with show notes, people and chapters.
            const candidates = yield* run(() =>
              Promise.all(
                hits.data.map(async (hit, index) => ({
                  hit,
                  index,
                  episode: await site.reader.episode(hit.slug)
                }))
              )
            )
            const chosen = candidates.find(
              ({ hit, episode }) =>
                hit.startSeconds !== null &&
                hit.startSeconds > 0 &&
                episode !== undefined &&
                episode.showNotes !== "" &&
                episode.people.length > 0 &&
                episode.chapters.length > 0
            )
            expect(
              chosen,
              `a timed passage of "${query}" in an episode with notes, people and chapters`
            ).toBeDefined()
            const { hit, index, episode } = chosen as NonNullable<typeof chosen>
            if (episode === undefined || hit.startSeconds === null) return
            const start = hit.startSeconds

            const { page, requests, failures } = yield* openPage(site)
            yield* searchFor(page, query)
            // ↓ from the box: the episodes first, then the passages, in order.
            for (let i = 0; i <= episodes.data.length + index; i++) {
              yield* run(() => page.keyboard.press("ArrowDown"))
            }
            const opened = passageHash(query, hit.slug, start)
            expect(yield* activeHref(page)).toBe(opened)
            // Focus shows.
            const outline = yield* run(() =>
              page.evaluate<string>("getComputedStyle(document.activeElement).outlineStyle")
            )
            expect(outline).not.toBe("none")
            // ↑ and ↓ again land on the same result.
            yield* run(() => page.keyboard.press("ArrowUp"))
            yield* run(() => page.keyboard.press("ArrowDown"))
            expect(yield* activeHref(page)).toBe(opened)

            yield* run(() => page.keyboard.press("Enter"))
            yield* run(() => page.locator("#episode").waitFor({ state: "visible" }))
            expect(yield* run(() => page.evaluate<string>("document.activeElement.id"))).toBe("episode-title")
            expect(yield* run(() => page.locator("#episode-title").textContent())).toBe(episode.title)
            expect(yield* run(() => page.locator("#results").isHidden())).toBe(true)

            // Show notes: their text, and each Markdown link as a link.
            const notes = (yield* run(() => page.locator("#episode .notes").textContent())) ?? ""
            const links = [...episode.showNotes.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)]
            const plain = episode.showNotes.replace(/\[([^\]]+)\]\([^)\s]+\)/g, "$1").replace(/^- /gm, "")
            for (const line of plain.split("\n").filter((text) => text.trim() !== "")) {
              expect(notes).toContain(line.trim())
            }
            const noteLinks = yield* run(() =>
              page
                .locator("#episode .notes a")
                .evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute("href")]))
            )
            expect(noteLinks).toEqual(links.map((link) => [link[1], new URL(link[2] ?? "").href]))
            // People and chapters.
            expect(yield* run(() => page.locator("#episode .people a").allTextContents())).toEqual(
              episode.people.map((person) => person.name)
            )
            const chapters = yield* run(() =>
              page
                .locator("#episode .chapters button")
                .evaluateAll((buttons) => buttons.map((b) => [Number(b.dataset.start), b.textContent]))
            )
            expect(chapters.map(([at]) => at)).toEqual(
              episode.chapters.map((chapter) => chapter.startSeconds)
            )
            chapters.forEach(([, text], i) => {
              expect(text).toContain(episode.chapters[i]?.title)
            })
            // The player: the episode's audio, starting at the passage's paragraph, nothing loaded yet.
            const player = yield* run(() =>
              page.locator("#episode audio").evaluate((audio) => ({
                src: audio.getAttribute("src"),
                currentTime: audio.currentTime,
                preload: audio.preload,
                start: Number(audio.dataset.start)
              }))
            )
            expect(player).toEqual({ src: episode.audio.url, currentTime: start, preload: "none", start })

            yield* photograph(page, "static-search-episode")

            // Esc: back to the results, on the passage that was opened; again: the box; again: cleared.
            yield* run(() => page.keyboard.press("Escape"))
            yield* run(() => page.locator("#results").waitFor({ state: "visible" }))
            expect(yield* run(() => page.locator("#episode").isHidden())).toBe(true)
            expect(yield* activeHref(page)).toBe(opened)
            yield* run(() => page.keyboard.press("Escape"))
            expect(yield* run(() => page.evaluate<string>("document.activeElement.id"))).toBe("q")
            yield* run(() => page.keyboard.press("Escape"))
            yield* run(() => page.locator("#status", { hasText: /^The newest episodes/ }).waitFor())
            expect(yield* run(() => page.inputValue("#q"))).toBe("")

            // The address kept the episode: opened again from it, the player starts there again.
            yield* run(() => page.goto(`${site.host.url}${opened}`))
            yield* run(() => page.locator("#episode").waitFor({ state: "visible" }))
            expect(
              yield* run(() => page.locator("#episode audio").evaluate((audio) => audio.currentTime))
            ).toBe(start)

            // No audio was fetched (nothing was played) and nothing left the static server's origin.
            expect(offOrigin(requests, site.host.origin)).toEqual([])
            expect(failures).toEqual([])
          })
        )
    )
  })
})

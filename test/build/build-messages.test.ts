// What the build says when it stops or when it leaves something out: a wrongly closed or unclosed
// element is named with the tags and lines involved, an item without a title by its line and guid,
// and the command line always says where the documentation pages came from (content/docs whatever
// the feed, as docs/operations.md documents, or none, and why).
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { buildCatalog } from "../../build/BuildCatalog.js"
import { defaultItems, renderFeed, writeFixturePodcast } from "../support/FixturePodcast.js"

const repository = resolve(import.meta.dirname, "..", "..")

/** The build's failure on a fixture podcast with `feed` as its feed text. */
const failureOn = (feed: string) =>
  Effect.gen(function* () {
    const fixture = writeFixturePodcast({ feed })
    const error = yield* Effect.flip(
      buildCatalog({
        feed: fixture.feed,
        docs: fixture.docs,
        out: fixture.out,
        sourceDateEpoch: undefined,
        progress: () => {}
      })
    )
    return { error, fixture }
  })

/** 1-based line of the first line of `text` containing `marker`, from `after` on. */
const lineOf = (text: string, marker: string, after = 0) =>
  text.split("\n").findIndex((line, index) => index >= after && line.includes(marker)) + 1

describe("build errors name what is wrong", () => {
  it.effect(
    "an element closed by the wrong tag names both tags, the line, and where the element opened",
    () =>
      Effect.gen(function* () {
        const good = renderFeed(defaultItems)
        const title = lineOf(good, "<title>Lenses from Paris</title>")
        const itemLine = title - 1
        const closing = lineOf(good, "</item>", title)
        const lines = good.split("\n")
        lines[closing - 1] = "    </channel>"
        const { error, fixture } = yield* failureOn(lines.join("\n"))
        expect(error.line).toBe(closing)
        expect(error.message).toBe(
          `${fixture.feed}:${closing}: not well-formed XML: expected </item> (<item> opened at line ${itemLine}), found </channel>`
        )
      })
  )

  it.effect("a namespaced element closed by a misspelt tag is named as written", () =>
    Effect.gen(function* () {
      const feed = renderFeed(defaultItems).replace(
        "<itunes:episode>3</itunes:episode>",
        "<itunes:episode>3</itunes:episod>"
      )
      const { error } = yield* failureOn(feed)
      expect(error.line).toBe(lineOf(feed, "</itunes:episod>"))
      expect(error.reason).toContain("expected </itunes:episode>")
      expect(error.reason).toContain("found </itunes:episod>")
    })
  )

  it.effect("an element that is never closed is named with the line it opened on", () =>
    Effect.gen(function* () {
      const good = renderFeed(defaultItems)
      const cut = good.slice(0, good.indexOf("    </item>"))
      const { error } = yield* failureOn(cut)
      const itemLine = lineOf(cut, "<item>")
      expect(error.line).toBe(itemLine)
      expect(error.reason).toBe(`not well-formed XML: <item> opened at line ${itemLine} is never closed`)
    })
  )

  it.effect("an item without a title is named by its line and its guid", () =>
    Effect.gen(function* () {
      const items = defaultItems.map((item) =>
        item.number === 3 ? { ...item, omit: ["title" as const] } : item
      )
      const feed = renderFeed(items)
      const { error, fixture } = yield* failureOn(feed)
      const guidLine = lineOf(feed, "fixture-2-3")
      expect(error.line).toBe(guidLine - 1)
      expect(error.item).toBeUndefined()
      expect(error.guid).toBe("fixture-2-3")
      expect(error.message).toBe(
        `${fixture.feed}:${guidLine - 1} (the item with guid "fixture-2-3"): missing required <title>`
      )
    })
  )
})

describe("the command line and the documentation pages", () => {
  const loader = pathToFileURL(join(repository, "node_modules", "tsx", "dist", "loader.mjs")).href
  const build = (cwd: string, args: ReadonlyArray<string>) =>
    spawnSync(process.execPath, ["--import", loader, join(repository, "build", "main.ts"), ...args], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, CATALOG_DIR: "" }
    })

  it("takes content/docs for another feed too, and says so", { timeout: 60_000 }, () => {
    const fixture = writeFixturePodcast()
    const result = build(repository, ["--feed", fixture.feed, "--out", fixture.out])
    expect(result.status).toBe(0)
    const pages = readdirSync(join(repository, "content/docs")).filter((name) => name.endsWith(".md")).length
    expect(result.stderr).toMatch(new RegExp(`docs\\s+${pages} pages from content/docs`))
  })

  it("says that a snapshot has no pages and how to give them when there is no docs folder", {
    timeout: 60_000
  }, () => {
    const fixture = writeFixturePodcast()
    const result = build(fixture.root, ["--feed", "feed.xml", "--out", "out"])
    expect(result.status).toBe(0)
    expect(result.stderr).toContain(
      "docs         none (content/docs not found; --docs <folder> names the pages)"
    )
  })

  it("takes the pages of --docs", { timeout: 60_000 }, () => {
    const fixture = writeFixturePodcast()
    const result = build(fixture.root, ["--feed", "feed.xml", "--docs", "docs", "--out", "out"])
    expect(result.status).toBe(0)
    expect(result.stderr).toMatch(/docs\s+2 pages from docs/)
  })
})

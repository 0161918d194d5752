// The catalog's MCP App in a real host: a test host page in Chromium embeds the `ui://` view that
// `/mcp` serves in a sandboxed iframe, under the content security policy its `_meta.ui.csp` asks for,
// and drives it with the extension's own host bridge (`AppBridge` of @modelcontextprotocol/ext-apps,
// bundled for the page), feeding it real tool results that the official v2 client gets from `/mcp`;
// the view's tools/call requests go back through the bridge and the same client to the server. The
// feed's audio host is outside this machine: Chromium gets a silent WAV for it (with byte ranges, so
// it can seek), and every other request must stay within the allowed origins. Screenshots of the
// card and the lists, light and dark, go to .tmp/screenshots (mcp-app-*.png) with SCREENSHOTS=1.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "@effect/vitest"
import type { CallToolResult, TextResourceContents } from "@modelcontextprotocol/client"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { build } from "esbuild"
import type { BrowserContext, Frame, Page } from "playwright-core"
import type { EpisodePage, TranscriptHitPage } from "../../src/catalog/domain/Collections.js"
import type { EpisodeDetail } from "../../src/catalog/domain/Episode.js"
import { catalogViewUri } from "../../src/catalog/mcp/CatalogView.js"
import { ServerAddress } from "../../src/http/NodeServer.js"
import { expectAccessible } from "../support/Accessibility.js"
import { browserUnavailable, newContext, TestBrowser, TestBrowserLive } from "../support/Browser.js"
import { contentTestServer } from "../support/ContentTestServer.js"
import { appsCapabilities, type McpSession, mcpSession } from "../support/McpClients.js"
import { describeNeeding } from "../support/Needs.js"
import { saveScreenshot } from "../support/Screenshots.js"
import { request } from "../support/TestServer.js"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..")

type Episode = (typeof EpisodeDetail.Encoded)["data"]
type Hit = (typeof TranscriptHitPage.Encoded)["data"][number]
type Theme = "light" | "dark"

interface ViewCsp {
  readonly connectDomains?: ReadonlyArray<string>
  readonly resourceDomains?: ReadonlyArray<string>
  readonly frameDomains?: ReadonlyArray<string>
  readonly baseUriDomains?: ReadonlyArray<string>
}

/** The extension's AppBridge and its postMessage transport as one module for the page, built once. */
let bundled: Promise<string> | undefined
const bridgeBundle = Effect.promise(() => {
  bundled ??= build({
    stdin: {
      contents: 'export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge"',
      resolveDir: root,
      loader: "js"
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent"
  }).then((result) => result.outputFiles[0]?.text ?? "")
  return bundled
})

/**
 * The host's policy for the view, as the extension's specification builds it from `_meta.ui.csp`
 * (its "CSP Construction from Metadata"); the view's own policy applies on top.
 */
const hostPolicy = (csp: ViewCsp) => {
  const list = (domains: ReadonlyArray<string> | undefined) => (domains ?? []).join(" ")
  const resources = list(csp.resourceDomains)
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${list(csp.connectDomains)}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains) || "'self'"}`
  ].join("; ")
}

const hostPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test host</title>
<style>body { margin: 16px; font-family: sans-serif; } iframe { display: block; width: 720px; height: 120px; border: 1px solid #888; }</style>
</head><body><h1>Test host</h1><script type="module" src="/host.js"></script></body></html>`

/**
 * The host: the view in an iframe sandboxed to scripts alone (an opaque origin), connected to the
 * bridge before it loads; tool calls go to the test (callServerTool, exposed by Playwright), links
 * and sizes are recorded and applied as a host would.
 */
const hostScript = `import { AppBridge, PostMessageTransport } from "/bridge.js";
const theme = new URLSearchParams(location.search).get("theme") === "dark" ? "dark" : "light";
document.documentElement.style.colorScheme = theme;
const frame = document.createElement("iframe");
frame.setAttribute("sandbox", "allow-scripts");
frame.title = "Episode view";
document.body.append(frame);
const opened = [];
const bridge = new AppBridge(
  null,
  { name: "catalog-test-host", version: "1.0.0" },
  { serverTools: {}, openLinks: {} },
  { hostContext: { theme, platform: "web", locale: "en-GB", displayMode: "inline", availableDisplayModes: ["inline"] } }
);
bridge.oncalltool = (params) => window.callServerTool(params);
bridge.onopenlink = async ({ url }) => { opened.push(url); return {}; };
bridge.onsizechange = ({ height }) => { if (height !== undefined) frame.style.height = height + "px"; };
const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
frame.src = "/view";
await initialized;
window.host = {
  opened,
  app: bridge.getAppVersion(),
  show: async (args, result) => {
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
  },
  setContext: (context) => bridge.setHostContext(context)
};
`

/** A loopback server for the host page, its script, the bridge and the view (with the host's policy). */
const hostServer = (bridge: string, view: string, csp: ViewCsp) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<Server>((resolve) => {
          const files: Record<string, readonly [string, string, Record<string, string>?]> = {
            "/": ["text/html; charset=utf-8", hostPage],
            "/host.js": ["text/javascript; charset=utf-8", hostScript],
            "/bridge.js": ["text/javascript; charset=utf-8", bridge],
            "/view": ["text/html; charset=utf-8", view, { "content-security-policy": hostPolicy(csp) }]
          }
          const server = createServer((req, res) => {
            const file = files[new URL(req.url ?? "/", "http://host").pathname]
            if (file === undefined) {
              res.writeHead(404).end()
              return
            }
            const [type, body, headers] = file
            res.writeHead(200, { "content-type": type, "cache-control": "no-store", ...headers }).end(body)
          })
          server.listen(0, "127.0.0.1", () => resolve(server))
        })
    ),
    (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`))

/** Silence as an 8 kHz 8-bit mono WAV of `seconds`: the feed's audio as far as the test is concerned. */
const silentWav = (seconds: number): Buffer => {
  const rate = 8000
  const samples = Math.ceil(seconds * rate)
  const header = Buffer.alloc(44)
  header.write("RIFF", 0)
  header.writeUInt32LE(36 + samples, 4)
  header.write("WAVEfmt ", 8)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(rate, 24)
  header.writeUInt32LE(rate, 28)
  header.writeUInt16LE(1, 32)
  header.writeUInt16LE(8, 34)
  header.write("data", 36)
  header.writeUInt32LE(samples, 40)
  return Buffer.concat([header, Buffer.alloc(samples, 128)])
}

/** Answers the audio host (outside this machine) with `wav`, honouring byte ranges as a CDN does. */
const serveAudio = (context: BrowserContext, origin: string, wav: Buffer) =>
  Effect.promise(() =>
    context.route(`${origin}/**`, (route) => {
      const range = /bytes=(\d+)-(\d*)/.exec(route.request().headers().range ?? "")
      const headers = { "content-type": "audio/wav", "accept-ranges": "bytes" }
      if (range === null) return route.fulfill({ status: 200, headers, body: wav })
      const start = Number(range[1])
      const end = range[2] === "" ? wav.length - 1 : Math.min(Number(range[2]), wav.length - 1)
      return route.fulfill({
        status: 206,
        headers: { ...headers, "content-range": `bytes ${start}-${end}/${wav.length}` },
        body: wav.subarray(start, end + 1)
      })
    })
  )

interface HostedView {
  readonly page: Page
  /** The view's frame (its document). */
  readonly view: () => Frame
  /** Every URL the page and the view requested. */
  readonly requests: ReadonlyArray<string>
  /** The tools/call requests that reached the test from the view, in order. */
  readonly calls: ReadonlyArray<{ readonly name: string; readonly arguments: Record<string, unknown> }>
  /** Content-security-policy reports and script errors of the page and the view. */
  readonly problems: ReadonlyArray<string>
  readonly origins: ReadonlyArray<string>
  readonly show: (args: Record<string, unknown>, result: CallToolResult) => Effect.Effect<void>
}

/**
 * The view as `/mcp` serves it to a client with the extension, in the test host with `theme`, its
 * tool calls answered by `session`; the audio host answers with `wav`.
 */
const hostView = (session: McpSession, theme: Theme, wav: Buffer) =>
  Effect.gen(function* () {
    const address = yield* ServerAddress
    const read = yield* Effect.promise(() => session.readResource(catalogViewUri))
    const [contents] = read.contents as ReadonlyArray<
      TextResourceContents & { _meta?: { ui?: { csp?: ViewCsp } } }
    >
    const csp = contents?._meta?.ui?.csp ?? {}
    const host = yield* hostServer(yield* bridgeBundle, contents?.text ?? "", csp)
    const browser = yield* TestBrowser
    const { context, requests } = yield* newContext(browser, { viewport: { width: 800, height: 900 } })
    for (const origin of csp.resourceDomains ?? []) yield* serveAudio(context, origin, wav)
    const page = yield* Effect.promise(() => context.newPage())
    const calls: Array<{ name: string; arguments: Record<string, unknown> }> = []
    const problems: Array<string> = []
    page.on("pageerror", (error) => problems.push(`error: ${error.message}`))
    page.on("console", (message) => {
      if (message.type() === "error" || /Content.Security.Policy/i.test(message.text())) {
        // The one error Chromium logs on its own: no favicon for the host page.
        if (!message.text().includes("404")) problems.push(`console: ${message.text()}`)
      }
    })
    yield* Effect.promise(() =>
      page.exposeFunction(
        "callServerTool",
        async (params: { name: string; arguments?: Record<string, unknown> }) => {
          calls.push({ name: params.name, arguments: params.arguments ?? {} })
          return session.callTool(params.name, params.arguments ?? {})
        }
      )
    )
    yield* Effect.promise(() => page.goto(`${host}/?theme=${theme}`))
    yield* Effect.promise(() =>
      page.waitForFunction("window.host !== undefined", undefined, { timeout: 15_000 })
    )
    const view = () => {
      const frame = page.frames().find((candidate) => candidate.url() === `${host}/view`)
      if (frame === undefined) throw new Error("the view's frame is not there")
      return frame
    }
    const hosted: HostedView = {
      page,
      view,
      requests,
      calls,
      problems,
      origins: [host, address.url, ...(csp.resourceDomains ?? [])],
      show: (args, result) =>
        Effect.promise(() =>
          page.evaluate(
            ([toolArgs, toolResult]) =>
              (
                globalThis as unknown as {
                  readonly host: { readonly show: (a: unknown, r: unknown) => Promise<void> }
                }
              ).host.show(toolArgs, toolResult),
            [args, result] as const
          )
        )
    }
    return hosted
  })

const frameText = (hosted: HostedView, selector: string) =>
  Effect.promise(() => hosted.view().locator(selector).allTextContents())

/**
 * Waits until `expression` is true in the view. (Playwright's waitForFunction evaluates a string
 * predicate with eval, which the view's policy refuses; evaluate itself is not subject to it.)
 */
const until = (hosted: HostedView, expression: string) =>
  Effect.promise(async () => {
    const deadline = Date.now() + 10_000
    while (!(await hosted.view().evaluate(expression))) {
      if (Date.now() > deadline) throw new Error(`the view never reached: ${expression}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })

/** Waits until the view shows `selector` (e.g. after a result or a tool call). */
const shown = (hosted: HostedView, selector: string) =>
  Effect.promise(() => hosted.view().locator(selector).first().waitFor({ timeout: 10_000 }))

/** Every request stayed within the host, the service and the feed's audio host; nothing was refused. */
const expectContained = (hosted: HostedView) => {
  const outside = hosted.requests.filter((url) => {
    if (url.startsWith("data:") || url.startsWith("about:")) return false
    return !hosted.origins.includes(new URL(url).origin)
  })
  expect(outside).toEqual([])
  expect(hosted.problems).toEqual([])
}

/** The view shows the catalog's words only: no value that went missing on the way. */
const expectNoPlaceholders = (hosted: HostedView) =>
  Effect.map(frameText(hosted, "main"), ([text]) =>
    expect(text ?? "").not.toMatch(/\b(null|undefined|NaN)\b|\[object Object\]/)
  )

/** The iframe as the host shows it (with SCREENSHOTS=1, to .tmp/screenshots/mcp-app-<name>-<theme>.png). */
const photograph = (hosted: HostedView, name: string, theme: Theme) =>
  Effect.promise(async () => {
    // The host sized the frame to what the view reported: nothing is cut off.
    await hosted.page.waitForFunction(
      "(() => { const frame = document.querySelector('iframe'); return frame.contentWindow && frame.getBoundingClientRect().height > 150; })()"
    )
    await saveScreenshot(hosted.page.locator("iframe"), `mcp-app-${name}-${theme}`)
  })

/** The view's background colour, as computed in its document. */
const background = (hosted: HostedView) =>
  Effect.promise(
    () =>
      hosted.view().evaluate("getComputedStyle(document.documentElement).backgroundColor") as Promise<string>
  )

/** How far the view's player got, and from where. */
const player = (hosted: HostedView) =>
  Effect.promise(
    () =>
      hosted
        .view()
        .evaluate(
          "(() => { const audio = document.querySelector('audio'); return { src: audio.currentSrc || audio.src, time: audio.currentTime, paused: audio.paused }; })()"
        ) as Promise<{ src: string; time: number; paused: boolean }>
  )

const openSession = Effect.flatMap(ServerAddress, (address) =>
  mcpSession("v2 client, 2026-07-28", new URL(`${address.url}/mcp`), { capabilities: appsCapabilities })
)

const call = (session: McpSession, name: string, args: Record<string, unknown>) =>
  Effect.promise(() => session.callTool(name, args))

describeNeeding(browserUnavailable)(
  "the catalog's MCP App in a test host (Chromium, the extension's AppBridge)",
  () => {
    it.layer(Layer.merge(contentTestServer(), TestBrowserLive))((it) => {
      for (const theme of ["light", "dark"] as const) {
        it.scoped(
          `the card shows the episode get_episode answered, in the host's ${theme} theme, plays its chapters and opens its link through the host`,
          () =>
            Effect.gen(function* () {
              const all = (yield* request("/v1/episodes?limit=50")).json as typeof EpisodePage.Encoded
              const chosen = all.data.find(
                (episode) => episode.chapters.length > 1 && episode.people.length > 0
              )
              expect(chosen, "an episode with chapters and people").toBeDefined()
              const slug = chosen?.slug ?? ""
              const session = yield* openSession
              const result = yield* call(session, "get_episode", { slug })
              const episode = (result.structuredContent as typeof EpisodeDetail.Encoded).data
              const chapter = episode.chapters[1] ?? { startSeconds: 0, title: "" }
              const hosted = yield* hostView(session, theme, silentWav(chapter.startSeconds + 30))
              // The system's scheme is the other one: the view follows the host, not the system.
              yield* Effect.promise(() =>
                hosted.page.emulateMedia({ colorScheme: theme === "dark" ? "light" : "dark" })
              )
              expect(yield* Effect.promise(() => hosted.page.evaluate("window.host.app"))).toEqual({
                name: "podcast-catalog-view",
                version: "1.0.0"
              })
              yield* hosted.show({ slug }, result)
              yield* shown(hosted, "h1")
              expect(yield* frameText(hosted, "h1")).toEqual([episode.title])
              const facts = (yield* frameText(hosted, ".facts"))[0] ?? ""
              expect(facts).toContain(`Season ${episode.session}, episode ${episode.episodeNumber}`)
              expect(facts).toContain(
                new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(
                  new Date(episode.publishedAt)
                )
              )
              const page = (yield* frameText(hosted, "article"))[0] ?? ""
              for (const person of episode.people) expect(page).toContain(`${person.name} (${person.role})`)
              expect(page).toContain("Show notes")
              expect(yield* frameText(hosted, ".chapters li")).toEqual(
                episode.chapters.map((each) => expect.stringContaining(each.title))
              )
              expect(yield* background(hosted)).toBe(
                theme === "dark" ? "rgb(28, 28, 30)" : "rgb(255, 255, 255)"
              )
              yield* expectAccessible(hosted.view(), `the card (${theme})`)
              yield* expectNoPlaceholders(hosted)
              yield* photograph(hosted, "card", theme)

              // A chapter plays the episode's audio from the chapter's start.
              const before = yield* player(hosted)
              expect(before.src).toBe(episode.audio.url)
              yield* Effect.promise(() => hosted.view().locator(".chapters button").nth(1).click())
              yield* until(
                hosted,
                `document.querySelector('audio').currentTime >= ${chapter.startSeconds - 0.5}`
              )
              const playing = yield* player(hosted)
              expect(playing.src).toBe(`${episode.audio.url}#t=${chapter.startSeconds}`)
              expect(playing.time).toBeLessThan(chapter.startSeconds + 5)

              // The publisher's page opens through the host (ui/open-link), not in the sandbox.
              yield* Effect.promise(() =>
                hosted
                  .view()
                  .getByRole("link", { name: /publisher/ })
                  .click()
              )
              yield* Effect.promise(() => hosted.page.waitForFunction("window.host.opened.length === 1"))
              expect(yield* Effect.promise(() => hosted.page.evaluate("window.host.opened"))).toEqual([
                episode.links.official
              ])
              expect(hosted.calls).toEqual([])
              expectContained(hosted)
            })
        )
      }

      it.scoped(
        "a transcript hit shows its passage with the highlights, plays the audio from the paragraph's start, and opens its episode through tools/call",
        () =>
          Effect.gen(function* () {
            const session = yield* openSession
            // A search whose hits include a paragraph the transcript times (the demo's Markdown
            // transcripts time only some): its earliest such moment, to keep the audio short.
            let found: { args: { query: string; limit: number }; result: CallToolResult } | undefined
            for (const query of ["survey", "tide", "chart", "sound", "glacier", "map", "water"]) {
              const result = yield* call(session, "search_transcripts", { query, limit: 5 })
              const page = result.structuredContent as typeof TranscriptHitPage.Encoded
              if (page.data.some((hit) => hit.startSeconds !== null && hit.startSeconds > 0)) {
                found = { args: { query, limit: 5 }, result }
                break
              }
            }
            expect(found, "a search with a timed hit").toBeDefined()
            const { args, result } = found ?? { args: { query: "", limit: 5 }, result: { content: [] } }
            const hits = (result.structuredContent as typeof TranscriptHitPage.Encoded).data
            const hit = hits
              .filter((each) => each.startSeconds !== null && each.startSeconds > 0)
              .reduce(
                (earliest: Hit | undefined, each) =>
                  earliest === undefined || (each.startSeconds ?? 0) < (earliest.startSeconds ?? 0)
                    ? each
                    : earliest,
                undefined
              ) as Hit
            const index = hits.indexOf(hit)
            const start = hit.startSeconds ?? 0
            const hosted = yield* hostView(session, "light", silentWav(start + 30))
            yield* hosted.show(args, result)
            yield* shown(hosted, ".results")
            expect(yield* frameText(hosted, "h1")).toEqual([
              `Transcript passages matching \u201c${args.query}\u201d`
            ])
            expect(yield* frameText(hosted, ".results > li h2")).toEqual(hits.map((each) => each.title))
            // The passage as text, its matched words marked.
            const item = hosted.view().locator(".results > li").nth(index)
            expect(yield* Effect.promise(() => item.locator("blockquote").textContent())).toBe(hit.snippet)
            expect(yield* Effect.promise(() => item.locator("mark").allTextContents())).toEqual(
              hit.highlights.map(([from, to]) => hit.snippet.slice(from, to))
            )
            yield* expectNoPlaceholders(hosted)
            yield* expectAccessible(hosted.view(), "the transcript hits")
            yield* photograph(hosted, "hits", "light")
            yield* Effect.promise(() => item.getByRole("button", { name: /^Play from/ }).click())
            yield* until(hosted, `document.querySelector('audio').currentTime >= ${start - 0.5}`)
            const playing = yield* player(hosted)
            expect(playing.src).toBe(hit.links.audioAt)
            expect(playing.time).toBeLessThan(start + 5)
            expect(hit.links.audioAt).toContain(`#t=${start}`)

            // Opening the episode is a tools/call the view sends through the host to /mcp.
            yield* Effect.promise(() => item.getByRole("button", { name: /^Open the episode/ }).click())
            yield* Effect.promise(() =>
              hosted.view().getByRole("button", { name: "Back to the results" }).waitFor({ timeout: 10_000 })
            )
            expect(hosted.calls).toEqual([{ name: "get_episode", arguments: { slug: hit.slug } }])
            expect(yield* frameText(hosted, "h1")).toEqual([hit.title])
            yield* Effect.promise(() =>
              hosted.view().getByRole("button", { name: "Back to the results" }).click()
            )
            yield* shown(hosted, ".results")
            expect(yield* frameText(hosted, ".results > li h2")).toEqual(hits.map((each) => each.title))
            expectContained(hosted)
          })
      )

      for (const theme of ["light", "dark"] as const) {
        it.scoped(`a list of episodes pages through search_episodes with tools/call (${theme})`, () =>
          Effect.gen(function* () {
            const session = yield* openSession
            const args = { limit: 4 }
            const result = yield* call(session, "search_episodes", args)
            const first = result.structuredContent as typeof EpisodePage.Encoded
            const hosted = yield* hostView(session, theme, silentWav(1))
            yield* hosted.show(args, result)
            yield* shown(hosted, ".results")
            expect(yield* frameText(hosted, "h1")).toEqual(["Latest episodes"])
            expect(yield* frameText(hosted, ".results > li h2")).toEqual(
              first.data.map((episode) => episode.title)
            )
            yield* expectAccessible(hosted.view(), `the list (${theme})`)
            yield* expectNoPlaceholders(hosted)
            yield* photograph(hosted, "list", theme)
            yield* Effect.promise(() => hosted.view().getByRole("button", { name: "More episodes" }).click())
            yield* Effect.promise(() =>
              hosted.view().locator(".results > li").nth(first.data.length).waitFor({ timeout: 10_000 })
            )
            expect(hosted.calls).toEqual([
              { name: "search_episodes", arguments: { limit: 4, cursor: first.nextCursor } }
            ])
            const second = (yield* request(
              `/v1/episodes?limit=4&cursor=${encodeURIComponent(first.nextCursor ?? "")}`
            )).json as typeof EpisodePage.Encoded
            expect(yield* frameText(hosted, ".results > li h2")).toEqual(
              [...first.data, ...second.data].map((episode) => episode.title)
            )
            // The host changes its theme and passes its own colours: the view follows.
            yield* Effect.promise(() =>
              hosted.page.evaluate(
                `window.host.setContext({ theme: "${theme === "dark" ? "light" : "dark"}", styles: { variables: { "--color-background-primary": "rgb(16, 32, 48)" } } })`
              )
            )
            yield* until(
              hosted,
              "getComputedStyle(document.documentElement).backgroundColor === 'rgb(16, 32, 48)'"
            )
            expect(
              yield* Effect.promise(() => hosted.view().evaluate("document.documentElement.dataset.theme"))
            ).toBe(theme === "dark" ? "light" : "dark")
            expectContained(hosted)
          })
        )
      }

      it.scoped("what the catalog says is shown as text, never run or loaded as markup", () =>
        Effect.gen(function* () {
          const session = yield* openSession
          const result = yield* call(session, "get_episode", { slug: "7" })
          const episode = (result.structuredContent as typeof EpisodeDetail.Encoded).data
          const hostile = `<img src="https://tracker.example/x.png" onerror="window.parent.postMessage('pwned','*')">`
          const forged: Episode = {
            ...episode,
            title: hostile,
            subtitle: "<script>alert(1)</script>",
            showNotes: `**Notes** with <iframe src="https://tracker.example/"></iframe>`,
            links: { ...episode.links, official: "javascript:alert(1)" }
          }
          const hosted = yield* hostView(session, "light", silentWav(1))
          yield* hosted.show(
            { slug: "7" },
            { ...result, structuredContent: { data: forged, schemaVersion: "1" } }
          )
          yield* shown(hosted, "h1")
          expect(yield* frameText(hosted, "h1")).toEqual([hostile])
          expect(yield* Effect.promise(() => hosted.view().locator("img, iframe").count())).toBe(0)
          expect(yield* Effect.promise(() => hosted.view().locator("script").count())).toBe(1)
          expect(yield* Effect.promise(() => hosted.view().locator("a").count())).toBe(0)
          expect(yield* frameText(hosted, "article")).toEqual([
            expect.stringContaining("<script>alert(1)</script>")
          ])
          expectContained(hosted)
          expect(hosted.requests.some((url) => url.includes("tracker.example"))).toBe(false)
        })
      )
    })
  }
)

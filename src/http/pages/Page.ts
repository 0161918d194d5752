// The frame of every page for people (sign-in, consent, the console, the links we mail, the landing
// page) and the HTTP answer that carries it: semantic HTML in one layout, the service's own
// stylesheet, the person's theme, no script unless a page asks for the one enhancement script, and
// headers that keep the page out of frames, caches and other sites' referrers.
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { type Html, html, toDocument } from "./Html.js"
import { pageScriptPath } from "./PageScript.js"
import { stylesheetPath } from "./Stylesheet.js"

/** The profile's theme: the system's preference, or always light or dark. */
export type PageTheme = "system" | "light" | "dark"

export interface PageOptions {
  readonly title: string
  readonly body: Html
  /** A wider column for pages with tables or lists of links. */
  readonly wide?: boolean
  /** The signed-in person's theme; the system's preference when absent. */
  readonly theme?: PageTheme
  /** What the header says about the signed-in person (who, their pages, sign-out). */
  readonly nav?: Html
  /** Loads the enhancement script (PageScript.ts); the page must work without it. */
  readonly script?: boolean
}

const colorSchemes: Record<PageTheme, string> = { system: "light dark", light: "light", dark: "dark" }

/** The whole document. The title names the page first, then the service, as screen readers read it. */
export const renderPage = (options: PageOptions): Html => {
  const theme = options.theme ?? "system"
  return html`<html lang="en"${theme === "system" ? "" : html` data-theme="${theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="color-scheme" content="${colorSchemes[theme]}">
<title>${options.title} · Podcast platform</title>
<link rel="stylesheet" href="${stylesheetPath}">
${options.script === true ? html`<script src="${pageScriptPath}" defer></script>` : ""}
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="site"><a href="/">Podcast platform</a>${options.nav ?? ""}</header>
<main id="main"${options.wide === true ? html` class="wide"` : ""}>
${options.body}
</main>
<footer class="site"><a href="/">Home</a></footer>
</body>
</html>`
}

export interface PageResponseOptions {
  readonly status?: number
  /**
   * Pages that show or act on a person's data are never stored by any cache (`no-store`); public
   * pages may be stored but are revalidated every time (`no-cache`).
   */
  readonly personal: boolean
  /**
   * Origins a form on the page may submit to, besides this service. Browsers apply `form-action` to
   * the redirects that follow a submission too, so the consent page lists the client's redirect URI.
   */
  readonly formTargets?: ReadonlyArray<string>
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * The Content-Security-Policy of every page: nothing but our stylesheet and our own forms, and our
 * own script only on the pages that load it.
 */
export const pagePolicy = (formTargets: ReadonlyArray<string> = [], script = false): string =>
  [
    "default-src 'none'",
    ...(script ? ["script-src 'self'"] : []),
    `style-src 'self'`,
    "img-src 'self'",
    `form-action 'self'${formTargets.map((target) => ` ${target}`).join("")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'"
  ].join("; ")

/** The security headers of a page, also used by redirects that come from page flows. */
export const pageHeaders = (options: PageResponseOptions, script = false): Record<string, string> => ({
  "cache-control": options.personal ? "no-store" : "no-cache",
  "content-security-policy": pagePolicy(options.formTargets, script),
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // Nothing goes to other sites; our own forms keep their Origin (under `no-referrer` a browser sends
  // `Origin: null` with a form post, which the Origin check of state-changing requests must refuse).
  "referrer-policy": "same-origin",
  ...options.headers
})

export const pageResponse = (
  page: PageOptions,
  options: PageResponseOptions
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(toDocument(renderPage(page)), {
    status: options.status ?? 200,
    contentType: "text/html; charset=utf-8",
    headers: pageHeaders(options, page.script === true)
  })

/** HTML for browsers that ask for it before JSON; JSON otherwise (curl sends `*\/*`). */
export const prefersHtml = (accept: string | undefined): boolean => {
  if (accept === undefined) return false
  const htmlAt = accept.indexOf("text/html")
  const jsonAt = accept.indexOf("application/json")
  return htmlAt !== -1 && (jsonAt === -1 || htmlAt < jsonAt)
}

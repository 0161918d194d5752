// The page templates: escaping by construction, safe links, the document frame and its policy.
import { describe, expect, it } from "@effect/vitest"
import { escapeHtml, html, safeHref, toDocument } from "../../src/http/pages/Html.js"
import { pagePolicy, renderPage } from "../../src/http/pages/Page.js"

describe("page templates", () => {
  it("escape every interpolated text, in content and in attributes", () => {
    const name = `<script>alert("x")</script> & 'quotes' \`ticks\``
    const page = html`<p title="${name}">${name}</p>`
    expect(page.text).not.toContain("<script>")
    expect(page.text).toBe(
      `<p title="${escapeHtml(name)}">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; &#96;ticks&#96;</p>`
    )
  })

  it("insert nested templates as markup, lists joined, and nothing for null, undefined and booleans", () => {
    const items = ["a<b", "c"].map((item) => html`<li>${item}</li>`)
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${true}${0}`.text).toBe(
      "<ul><li>a&lt;b</li><li>c</li></ul>0"
    )
  })

  it("never let a link built from outside input run script or leave through a protocol-relative URL", () => {
    expect(safeHref("javascript:alert(1)")).toBe("#")
    expect(safeHref("data:text/html,hi")).toBe("#")
    expect(safeHref("//evil.example/x")).toBe("#")
    expect(safeHref("/sign-in?x=1")).toBe("/sign-in?x=1")
    expect(safeHref("https://app.example/cb")).toBe("https://app.example/cb")
  })

  it("render a whole document with a language, a title and the service's own stylesheet", () => {
    const text = toDocument(renderPage({ title: "Sign in", body: html`<h1>Sign in</h1>` }))
    expect(text.startsWith('<!doctype html>\n<html lang="en">')).toBe(true)
    expect(text).toContain("<title>Sign in · Podcast platform</title>")
    expect(text).toMatch(/<link rel="stylesheet" href="\/assets\/site-[0-9a-f]{16}\.css">/)
    expect(text).not.toMatch(/<script/i)
  })

  it("forbid framing, script and foreign form targets unless a target is named", () => {
    expect(pagePolicy()).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )
    expect(pagePolicy(["https://app.example"])).toContain("form-action 'self' https://app.example;")
  })
})

// A page that tells a person one thing (a refusal, an error, a confirmation) and where to go next,
// for every flow of the foundation's pages (sign-in, consent, the links the service mails). It is
// personal (never cached), and it can be had as bytes too, for refusals written at the server's edge.
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { ErrorAnswer } from "../../http/ErrorAnswer.js"
import { type Html, html, toDocument } from "../../http/pages/Html.js"
import { type PageOptions, pageHeaders, renderPage } from "../../http/pages/Page.js"

export interface Message {
  readonly status: number
  readonly title: string
  /** One or more paragraphs. */
  readonly body: Html
  /** Headers besides the page's own (e.g. `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>
  /** The signed-in person's frame (PageViewers.ts `viewerFrame`), when the page knows them. */
  readonly frame?: Pick<PageOptions, "theme" | "nav">
}

const page = (message: Message) =>
  toDocument(
    renderPage({
      title: message.title,
      body: html`<h1>${message.title}</h1>
${message.body}`,
      ...message.frame
    })
  )

export const messagePage = (message: Message): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(page(message), {
    status: message.status,
    contentType: "text/html; charset=utf-8",
    headers: pageHeaders({ personal: true, headers: message.headers ?? {} })
  })

const encoder = new TextEncoder()

/** The same page as bytes and headers, for a writer outside the router. */
export const messageAnswer = (message: Message): ErrorAnswer => {
  const body = encoder.encode(page(message))
  return {
    status: message.status,
    headers: {
      ...pageHeaders({ personal: true, headers: message.headers ?? {} }),
      "content-type": "text/html; charset=utf-8",
      "content-length": String(body.byteLength)
    },
    body
  }
}

/** The page of a request the database could not answer now (503, try again in a few seconds). */
export const unavailablePage = (retryAfterSeconds = 5) =>
  messagePage({
    status: 503,
    title: "Try again in a moment",
    body: html`<p>The service is temporarily unavailable. Reload this page in a few seconds.</p>`,
    headers: { "retry-after": String(retryAfterSeconds) }
  })

// The forms people post from the foundation's pages, refused the same way everywhere: the server's
// edge reads each as a form-encoded body of bounded size, and a body it cannot read (too large, of
// another media type, a field given twice) is answered with a page that says so and where to go back,
// never with JSON.
import type { ApiError } from "../../http/ApiError.js"
import { type Html, html } from "../../http/pages/Html.js"
import type { RouteBodyRule } from "../../http/ServerRegistries.js"
import { type Message, messageAnswer, messagePage } from "./MessagePage.js"

const unreadable = (status: number, problem: string, back: Html | undefined): Message => ({
  status,
  title: "This form could not be read",
  body: back === undefined ? html`<p>${problem}</p>` : html`<p>${problem}</p><p>${back}</p>`
})

/** The edge's refusal of a page's form body: 413 when too large, else 400. */
export const formRefusal =
  (back?: Html) =>
  (error: ApiError): ReturnType<typeof messageAnswer> =>
    messageAnswer(unreadable(error.message.includes("larger") ? 413 : 400, error.message, back))

/** The edge's rule for the form a page posts to `path`: form-encoded, at most `maxBytes`. */
export const pageFormRule = (path: `/${string}`, maxBytes: number, back?: Html): RouteBodyRule => ({
  method: "POST",
  path,
  maxBytes,
  mediaTypes: ["form"],
  refusal: formRefusal(back)
})

/** The page of a form the route could not read (400). */
export const unreadableFormPage = (problem: string, back?: Html) =>
  messagePage(unreadable(400, problem, back))

// Points in time as the pages show them: one fixed, unambiguous form in UTC (a page rendered without
// script cannot know the reader's time zone), machine-readable in `datetime`.
import { type Html, html } from "./Html.js"

export const timeOf = (date: Date): Html =>
  html`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace("T", " ")} UTC</time>`

// Form controls of the pages, each labelled and described for assistive technology, so every page
// builds its forms from the same accessible pieces.
import { type Html, html } from "./Html.js"

export interface InputOptions {
  readonly name: string
  readonly label: string
  readonly type: "email" | "password" | "text"
  readonly autocomplete: string
  readonly value?: string
  readonly required?: boolean
  readonly hint?: string
  readonly maxLength?: number
  readonly autofocus?: boolean
}

export const input = (options: InputOptions): Html => {
  const id = `field-${options.name}`
  const hintId = `${id}-hint`
  return html`<label for="${id}">${options.label}</label>
${options.hint === undefined ? "" : html`<p class="hint" id="${hintId}">${options.hint}</p>`}
<input id="${id}" name="${options.name}" type="${options.type}" autocomplete="${options.autocomplete}"${
    options.value === undefined ? "" : html` value="${options.value}"`
  }${options.maxLength === undefined ? "" : html` maxlength="${options.maxLength}"`}${
    options.required === true ? html` required` : ""
  }${options.autofocus === true ? html` autofocus` : ""}${
    options.hint === undefined ? "" : html` aria-describedby="${hintId}"`
  }>`
}

export const hidden = (name: string, value: string): Html =>
  html`<input type="hidden" name="${name}" value="${value}">`

/** A notice above a form: an error the person can act on, or a confirmation. */
export const notice = (kind: "error" | "ok" | "info", text: Html | string): Html =>
  html`<div class="notice${kind === "info" ? "" : ` ${kind}`}" role="${kind === "error" ? "alert" : "status"}">${text}</div>`

// Form controls of the pages, each labelled and described for assistive technology, so every page
// builds its forms from the same accessible pieces. A field that came back with a problem says so
// beside it (and `aria-invalid`, with the message in its description), and the page lists every
// problem at the top with a link to its field (`errorSummary`), as GOV.UK's design system does.
import { type Html, html } from "./Html.js"

/** A problem with one field, in the person's words; `field` is the id of the control it concerns. */
export interface FieldError {
  readonly field: string
  readonly text: string
}

/** The id of a field: `field-<name>`, or `field-<form>-<name>` where a page has several forms. */
export const fieldId = (name: string, form?: string): string =>
  form === undefined ? `field-${name}` : `field-${form}-${name}`

/** The message beside a field, read with it (its id is in the control's `aria-describedby`). */
const errorMessage = (id: string, error: string | undefined): Html =>
  error === undefined
    ? html``
    : html`<p class="field-error" id="${id}-error"><span class="visually-hidden">Error: </span>${error}</p>`

const describedBy = (id: string, hint: string | undefined, error: string | undefined): Html => {
  const ids = [...(hint === undefined ? [] : [`${id}-hint`]), ...(error === undefined ? [] : [`${id}-error`])]
  return ids.length === 0
    ? html``
    : html` aria-describedby="${ids.join(" ")}"${error === undefined ? "" : html` aria-invalid="true"`}`
}

const hintText = (id: string, hint: string | undefined): Html =>
  hint === undefined ? html`` : html`<p class="hint" id="${id}-hint">${hint}</p>`

const fieldClass = (error: string | undefined) => (error === undefined ? "field" : "field invalid")

export interface InputOptions {
  readonly name: string
  readonly label: string
  readonly type: "email" | "password" | "text" | "url" | "tel" | "number"
  readonly autocomplete: string
  readonly value?: string | undefined
  readonly required?: boolean
  readonly hint?: string
  readonly maxLength?: number
  readonly min?: number
  readonly max?: number
  readonly autofocus?: boolean
  /** The form's name, where the page has several forms with fields of the same name. */
  readonly form?: string
  readonly error?: string | undefined
  readonly spellcheck?: boolean
}

export const input = (options: InputOptions): Html => {
  const id = fieldId(options.name, options.form)
  return html`<div class="${fieldClass(options.error)}"><label for="${id}">${options.label}</label>
${hintText(id, options.hint)}${errorMessage(id, options.error)}<input id="${id}" name="${options.name}" type="${options.type}" autocomplete="${options.autocomplete}"${
    options.value === undefined ? "" : html` value="${options.value}"`
  }${options.maxLength === undefined ? "" : html` maxlength="${options.maxLength}"`}${
    options.min === undefined ? "" : html` min="${options.min}"`
  }${options.max === undefined ? "" : html` max="${options.max}"`}${options.required === true ? html` required` : ""}${
    options.autofocus === true ? html` autofocus` : ""
  }${options.spellcheck === false ? html` spellcheck="false"` : ""}${describedBy(id, options.hint, options.error)}></div>`
}

export interface TextareaOptions {
  readonly name: string
  readonly label: string
  readonly autocomplete: string
  readonly value?: string | undefined
  readonly hint?: string
  readonly maxLength?: number
  readonly rows?: number
  readonly form?: string
  readonly error?: string | undefined
}

export const textarea = (options: TextareaOptions): Html => {
  const id = fieldId(options.name, options.form)
  return html`<div class="${fieldClass(options.error)}"><label for="${id}">${options.label}</label>
${hintText(id, options.hint)}${errorMessage(id, options.error)}<textarea id="${id}" name="${options.name}" autocomplete="${options.autocomplete}" rows="${options.rows ?? 3}"${
    options.maxLength === undefined ? "" : html` maxlength="${options.maxLength}"`
  }${describedBy(id, options.hint, options.error)}>${options.value ?? ""}</textarea></div>`
}

export interface Choice {
  readonly value: string
  readonly label: string
  readonly hint?: string
  /**
   * The control's own name, where each checkbox of a group is a field of its own (the pages' forms
   * take every field once); the group's name otherwise.
   */
  readonly name?: string
}

export interface SelectOptions {
  readonly name: string
  readonly label: string
  readonly choices: ReadonlyArray<Choice>
  readonly value?: string | undefined
  readonly hint?: string
  readonly form?: string
  readonly error?: string | undefined
  /** Hides the label from sight (it is still the control's name), e.g. in a table row. */
  readonly labelHidden?: boolean
}

export const select = (options: SelectOptions): Html => {
  const id = fieldId(options.name, options.form)
  return html`<label for="${id}"${options.labelHidden === true ? html` class="visually-hidden"` : ""}>${options.label}</label>${hintText(
    id,
    options.hint
  )}${errorMessage(id, options.error)}<select id="${id}" name="${options.name}"${describedBy(id, options.hint, options.error)}>${options.choices.map(
    (choice) =>
      html`<option value="${choice.value}"${choice.value === options.value ? html` selected` : ""}>${choice.label}</option>`
  )}</select>`
}

export interface ChoicesOptions {
  readonly name: string
  readonly legend: string
  readonly kind: "radio" | "checkbox"
  readonly choices: ReadonlyArray<Choice>
  /** The chosen values. */
  readonly values: ReadonlyArray<string>
  readonly hint?: string
  readonly form?: string
  readonly error?: string | undefined
}

/** The id of a group's first control: where the error summary's link for the group leads. */
export const firstChoiceId = (name: string, form?: string): string => `${fieldId(name, form)}-1`

/** Radios or checkboxes in a fieldset whose legend asks the question. */
export const choices = (options: ChoicesOptions): Html => {
  const id = fieldId(options.name, options.form)
  return html`<div class="${fieldClass(options.error)}"><fieldset${describedBy(id, options.hint, options.error)}>
<legend>${options.legend}</legend>
${hintText(id, options.hint)}${errorMessage(id, options.error)}${options.choices.map((choice, index) => {
  const choiceId = `${id}-${index + 1}`
  return html`<label class="choice" for="${choiceId}"><input type="${options.kind}" id="${choiceId}" name="${choice.name ?? options.name}" value="${choice.value}"${
    options.values.includes(choice.value) ? html` checked` : ""
  }${choice.hint === undefined ? "" : html` aria-describedby="${choiceId}-hint"`}> <span>${choice.label}</span></label>${
    choice.hint === undefined
      ? ""
      : html`<p class="hint choice-hint" id="${choiceId}-hint">${choice.hint}</p>`
  }`
})}
</fieldset></div>`
}

export const hidden = (name: string, value: string): Html =>
  html`<input type="hidden" name="${name}" value="${value}">`

/** A notice above a form: an error the person can act on, or a confirmation. */
export const notice = (kind: "error" | "ok" | "info", text: Html | string): Html =>
  html`<div class="notice${kind === "info" ? "" : ` ${kind}`}" role="${kind === "error" ? "alert" : "status"}">${text}</div>`

/** Every problem of the form at the top of the page, each a link to its field. Nothing when none. */
export const errorSummary = (errors: ReadonlyArray<FieldError>): Html =>
  errors.length === 0
    ? html``
    : html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">There is a problem</h2>
<ul>${errors.map((error) => html`<li><a href="#${error.field}">${error.text}</a></li>`)}</ul>
</div>`

/** The message of the error on `field`, if any. */
export const errorFor = (errors: ReadonlyArray<FieldError>, field: string): string | undefined =>
  errors.find((error) => error.field === field)?.text

/**
 * A button that posts one small form (an action on one row of a list: revoke, remove). The visible
 * label is short; `about` names the row for screen readers ("Revoke" + " the token ci").
 */
export const actionButton = (options: {
  readonly action: string
  readonly fields: ReadonlyArray<readonly [string, string]>
  readonly label: string
  readonly about?: string
  readonly kind?: "danger" | "secondary"
}): Html =>
  html`<form class="inline" method="post" action="${options.action}">${options.fields.map(([name, value]) =>
    hidden(name, value)
  )}<button type="submit" class="small${options.kind === undefined ? "" : ` ${options.kind}`}">${options.label}${
    options.about === undefined ? "" : html`<span class="visually-hidden"> ${options.about}</span>`
  }</button></form>`

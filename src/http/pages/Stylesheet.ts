// The one stylesheet of every page the service renders for people, served from the service itself
// under a content-hashed path (so it can be cached for good and the pages need no CDN). Plain CSS
// that reads well with or without it: the pages are semantic HTML first. The colours are variables
// in two sets, light and dark: a page follows the system's preference unless the person chose one
// in their profile (`data-theme` on the root element, Page.ts), and `color-scheme` follows too, so
// form controls and scrollbars match.
import { createHash } from "node:crypto"

const light = `--text: #1b1e23; --muted: #4f5662; --bg: #ffffff; --panel: #f4f5f7; --line: #8a919c;
    --soft-line: #d5d9df; --accent: #0b57d0; --accent-text: #ffffff; --danger: #b3261e; --danger-text: #ffffff;
    --ok: #146c2e; --focus: #f29900; --focus-text: #1b1e23;`
const dark = `--text: #e6e8eb; --muted: #b4bac4; --bg: #15171a; --panel: #1f2227; --line: #7d8591;
    --soft-line: #3b414a; --accent: #8ab4f8; --accent-text: #0b1a33; --danger: #f2b8b5; --danger-text: #3b0a08;
    --ok: #a8dab5; --focus: #fdd663; --focus-text: #15171a;`

export const stylesheetText = `:root {
  color-scheme: light dark;
  ${light}
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, sans-serif;
  line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme=light]) { ${dark} }
}
:root[data-theme=light] { color-scheme: light; }
:root[data-theme=dark] { color-scheme: dark; ${dark} }
* { box-sizing: border-box; }
body { margin: 0; color: var(--text); background: var(--bg); overflow-wrap: break-word; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible,
summary:focus-visible, [tabindex]:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 1; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; margin: 0; padding: 0;
  overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0; }
header.site, footer.site { padding: .75rem 1.25rem; border-bottom: 1px solid var(--soft-line); }
header.site { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: baseline; justify-content: space-between; }
footer.site { border-top: 1px solid var(--soft-line); border-bottom: 0; color: var(--muted); font-size: .9rem; }
header.site > a { color: var(--text); font-weight: 600; text-decoration: none; }
nav.account ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; align-items: baseline; }
nav.account .who { color: var(--muted); }
main { max-width: 40rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
main.wide { max-width: 62rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 2.25rem 0 .5rem; padding-top: .75rem; border-top: 1px solid var(--soft-line); }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
p.lead { font-size: 1.1rem; color: var(--muted); }
.panel { background: var(--panel); border: 1px solid var(--soft-line); border-radius: .5rem; padding: 1rem 1.25rem; }
.notice { border-left: 4px solid var(--accent); padding: .5rem 1rem; background: var(--panel); margin: 1rem 0; }
.notice.error { border-color: var(--danger); }
.notice.ok { border-color: var(--ok); }
.error-summary { border: 4px solid var(--danger); padding: .75rem 1.25rem; margin: 0 0 1.5rem; }
.error-summary h2 { margin: 0 0 .5rem; padding: 0; border: 0; font-size: 1.15rem; }
.error-summary ul { margin: 0; padding-left: 1.25rem; }
.error-summary a { color: var(--danger); font-weight: 600; }
form { margin: 1rem 0; }
form.inline { display: inline; margin: 0; }
.field { margin: 0 0 1rem; }
.field.invalid { border-left: 4px solid var(--danger); padding-left: .75rem; }
.field-error { color: var(--danger); font-weight: 600; margin: .25rem 0; }
fieldset { border: 1px solid var(--soft-line); border-radius: .5rem; margin: 0 0 1rem; padding: .75rem 1rem; min-width: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
label.choice { display: flex; gap: .5rem; align-items: baseline; font-weight: 400; margin: .35rem 0; }
.choice-hint { margin: -.25rem 0 .5rem 1.6rem; }
input[type=email], input[type=password], input[type=text], input[type=url], input[type=tel], input[type=number],
select, textarea {
  width: 100%; padding: .55rem .65rem; font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: .35rem;
}
input[type=number] { max-width: 10rem; }
select { width: auto; max-width: 100%; }
textarea { min-height: 5rem; resize: vertical; }
[aria-invalid=true] { border: 2px solid var(--danger); }
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; align-items: center; margin-top: 1.25rem; }
button { font: inherit; padding: .55rem 1.1rem; border-radius: .35rem; border: 1px solid var(--accent);
  background: var(--accent); color: var(--accent-text); cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button.danger { background: transparent; color: var(--danger); border-color: var(--danger); }
button.small { padding: .25rem .7rem; font-size: .92rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
ul.links li { margin: .35rem 0; }
ul.sections { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; padding: 0; margin: 0 0 1rem; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .92em; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: .8rem; font-weight: 600; padding: 0 .45rem; border: 1px solid var(--line);
  border-radius: 1rem; color: var(--muted); white-space: nowrap; }
.secret { display: block; padding: .75rem; margin: .5rem 0; background: var(--bg); border: 2px dashed var(--line);
  border-radius: .35rem; user-select: all; -webkit-user-select: all; word-break: break-all; font-size: 1rem; }
table.list { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; }
table.list caption { text-align: left; color: var(--muted); padding: .25rem 0; }
table.list th, table.list td { text-align: left; vertical-align: top; padding: .5rem .5rem .5rem 0;
  border-bottom: 1px solid var(--soft-line); }
table.list th { font-size: .9rem; color: var(--muted); }
table.list td.do { text-align: right; white-space: nowrap; }
table.list td .choice-row { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
table.list td .row-actions { display: flex; gap: .5rem 1rem; flex-wrap: wrap; justify-content: flex-end; align-items: center; }
@media (max-width: 44rem) {
  dl.facts { grid-template-columns: 1fr; gap: 0; }
  dl.facts dd { margin-bottom: .5rem; }
  table.list thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.list, table.list tbody, table.list tr, table.list td { display: block; width: 100%; }
  table.list tr { border-bottom: 1px solid var(--soft-line); padding: .5rem 0; }
  table.list td { border: 0; padding: .15rem 0; }
  table.list td.do { text-align: left; white-space: normal; }
  table.list td .row-actions { justify-content: flex-start; }
  table.list td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
}
`

const hash = createHash("sha256").update(stylesheetText).digest("hex").slice(0, 16)

/** The stylesheet's path: its content hash is in the name, so it is served as immutable. */
export const stylesheetPath: `/${string}` = `/assets/site-${hash}.css`

// The one stylesheet of every page the service renders for people, served from the service itself
// under a content-hashed path (so it can be cached for good and the pages need no CDN). Plain CSS
// that reads well with or without it: the pages are semantic HTML first.
import { createHash } from "node:crypto"

export const stylesheetText = `:root {
  color-scheme: light dark;
  --text: #1b1e23; --muted: #4f5662; --bg: #ffffff; --panel: #f4f5f7; --line: #c9ced6;
  --accent: #0b57d0; --accent-text: #ffffff; --danger: #b3261e; --ok: #146c2e; --focus: #f29900;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, sans-serif;
  line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root { --text: #e6e8eb; --muted: #b4bac4; --bg: #15171a; --panel: #1f2227; --line: #3b414a;
    --accent: #8ab4f8; --accent-text: #0b1a33; --danger: #f2b8b5; --ok: #a8dab5; }
}
* { box-sizing: border-box; }
body { margin: 0; color: var(--text); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 1; }
header.site, footer.site { padding: .75rem 1.25rem; border-bottom: 1px solid var(--line); }
footer.site { border-top: 1px solid var(--line); border-bottom: 0; color: var(--muted); font-size: .9rem; }
header.site a { color: var(--text); font-weight: 600; text-decoration: none; }
main { max-width: 40rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
main.wide { max-width: 60rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.75rem 0 .5rem; }
p.lead { font-size: 1.1rem; color: var(--muted); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem 1.25rem; }
.notice { border-left: 4px solid var(--accent); padding: .5rem 1rem; background: var(--panel); }
.notice.error { border-color: var(--danger); }
.notice.ok { border-color: var(--ok); }
form { margin: 1rem 0; }
fieldset { border: 1px solid var(--line); border-radius: .5rem; margin: 0 0 1rem; padding: .75rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
label.choice { display: flex; gap: .5rem; align-items: baseline; font-weight: 400; margin: .35rem 0; }
input[type=email], input[type=password], input[type=text] {
  width: 100%; padding: .55rem .65rem; font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: .35rem;
}
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1.25rem; }
button { font: inherit; padding: .55rem 1.1rem; border-radius: .35rem; border: 1px solid var(--accent);
  background: var(--accent); color: var(--accent-text); cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
ul.links li { margin: .35rem 0; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .92em; }
`

const hash = createHash("sha256").update(stylesheetText).digest("hex").slice(0, 16)

/** The stylesheet's path: its content hash is in the name, so it is served as immutable. */
export const stylesheetPath: `/${string}` = `/assets/site-${hash}.css`

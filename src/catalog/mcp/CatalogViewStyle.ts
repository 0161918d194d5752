// The stylesheet of the catalog's MCP App view (CatalogView.ts): the host's theme first (its
// `light`/`dark` and the extension's standard CSS variables, applied by the view's script), our own
// colours as the fallback, chosen for contrast in both schemes.
export const catalogViewStyle = `
:root {
  color-scheme: light dark;
  --bg: var(--color-background-primary, light-dark(#ffffff, #1c1c1e));
  --bg-2: var(--color-background-secondary, light-dark(#f3f3f5, #2a2a2e));
  --text: var(--color-text-primary, light-dark(#1a1a1a, #f2f2f2));
  --text-2: var(--color-text-secondary, light-dark(#45454b, #c8c8cc));
  --border: var(--color-border-primary, light-dark(#cfcfd4, #505056));
  --accent: var(--color-text-info, light-dark(#0b57d0, #a8c7fa));
  --danger: var(--color-text-danger, light-dark(#b3261e, #f2b8b5));
  --ring: var(--color-ring-primary, light-dark(#0b57d0, #a8c7fa));
  --mark-bg: light-dark(#ffe08a, #5c4500);
  --radius: var(--border-radius-md, 8px);
  font-family: var(--font-sans, system-ui, -apple-system, "Segoe UI", sans-serif);
  font-size: var(--font-text-md-size, 16px);
  line-height: var(--font-text-md-line-height, 1.5);
  background: var(--bg);
  color: var(--text);
}
:root[data-theme="light"] { color-scheme: light; }
:root[data-theme="dark"] { color-scheme: dark; }
html, body { margin: 0; }
main { padding: 12px 16px 16px; max-width: 720px; }
h1 { font-size: var(--font-heading-md-size, 1.3rem); line-height: 1.25; margin: 0 0 4px; }
h2 { font-size: var(--font-heading-xs-size, 1rem); line-height: 1.3; margin: 16px 0 4px; }
.results h2 { margin: 0 0 2px; }
p { margin: 4px 0; }
.facts, .note { color: var(--text-2); font-size: var(--font-text-sm-size, 0.9rem); }
.error { color: var(--danger); }
ol, ul { padding-left: 1.25rem; margin: 4px 0; }
.results { list-style: none; padding: 0; }
.results > li { border-top: 1px solid var(--border); padding: 10px 0; }
.player + .results > li:first-child { border-top: 0; }
.chapters li { margin: 2px 0; }
blockquote { margin: 6px 0; padding: 2px 12px; border-left: 3px solid var(--border); background: var(--bg-2); border-radius: 0 var(--radius) var(--radius) 0; }
mark { background: var(--mark-bg); color: var(--text); border-radius: 2px; padding: 0 1px; }
a { color: var(--accent); }
button {
  font: inherit; font-size: var(--font-text-sm-size, 0.9rem); color: var(--accent); background: var(--bg);
  border: 1px solid var(--border); border-radius: var(--radius); padding: 4px 10px; margin: 4px 6px 0 0; cursor: pointer;
}
button.title { border: 0; padding: 0; margin: 0; background: none; font-size: inherit; font-weight: inherit; text-align: left; text-decoration: underline; }
button:disabled { color: var(--text-2); cursor: progress; }
:focus-visible { outline: 2px solid var(--ring); outline-offset: 2px; }
audio { display: block; width: 100%; margin: 8px 0; }
.player { position: sticky; top: 0; background: var(--bg); padding: 4px 0; border-bottom: 1px solid var(--border); }
`

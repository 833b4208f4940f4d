// The console's stylesheet and its one small script, served from this process (no CDN). Colours meet WCAG
// AA contrast on white; the layout is a single column on a phone.
export const STYLESHEET = `
:root { --ink: #1b1f24; --muted: #4a5563; --line: #c9d1da; --accent: #0b57b0; --bad: #a4161a; --good: #1b6b35; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fff; }
a { color: var(--accent); }
a:focus, button:focus, input:focus, select:focus { outline: 3px solid #f2a900; outline-offset: 2px; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
header .brand { font-weight: 700; font-size: 1.15rem; color: var(--ink); text-decoration: none; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--ink); }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
form.stack { display: grid; gap: .75rem; max-width: 24rem; }
label { font-weight: 600; display: block; }
input, select { font: inherit; padding: .5rem; border: 1px solid var(--muted); border-radius: 4px; width: 100%; }
button { font: inherit; padding: .5rem 1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
.inline { display: inline; }
.notice { padding: .75rem 1rem; border-left: 4px solid var(--good); background: #eef7f0; margin: 1rem 0; }
.error { padding: .75rem 1rem; border-left: 4px solid var(--bad); background: #fbeeee; margin: 1rem 0; }
.warning { padding: .75rem 1rem; border-left: 4px solid #8a5a00; background: #fff6e0; margin: 1rem 0; }
.muted { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: minmax(10rem, max-content) 1fr; gap: .35rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
meter { width: 100%; max-width: 30rem; height: 1.25rem; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code.key { display: block; padding: .75rem; background: #f3f5f7; border: 1px solid var(--line); word-break: break-all; font-size: 1rem; }
svg.chart { width: 100%; height: auto; max-width: 48rem; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; }
.legend svg { vertical-align: -2px; }
@media (max-width: 40rem) {
  dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: .5rem; }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards tr { display: block; padding: .4rem 0; border-bottom: 1px solid var(--line); }
  table.cards td { display: flex; justify-content: space-between; gap: 1rem; border: 0; padding: .15rem .25rem; }
  table.cards td::before { content: attr(data-label); font-weight: 600; text-align: left; }
}
`;

/** Copies the new key's text; the page works without it (the key can be selected by hand). */
export const SCRIPT = `
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) return;
  const text = document.getElementById(button.dataset.copy)?.textContent ?? '';
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select the key and copy it';
  }
});
`;

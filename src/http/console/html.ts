// Writing the console's HTML: every interpolated value is escaped by `html`, unless it is already Html.
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Part = Html | string | number | null | undefined | false | Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (Array.isArray(part)) return part.map(render).join('');
  if (part instanceof Html) return part.text;
  return escapeHtml(part);
}

/** A template tag: `html\`<p>${name}</p>\`` escapes `name`; arrays are joined, false and null are dropped. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0] ?? '';
  parts.forEach((part, i) => {
    out += render(part) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

export interface Viewer {
  email: string;
  admin: boolean;
}

export interface PageOptions {
  title: string;
  /** The nav entry to mark as the current page. */
  current?: string;
  viewer?: Viewer | null;
  csrf?: string;
  notice?: string | null;
  error?: string | null;
}

const NAV: [path: string, label: string][] = [
  ['/console/overview', 'Overview'],
  ['/console/usage', 'Usage'],
  ['/console/keys', 'Keys'],
  ['/console/activity', 'Activity'],
];
const ADMIN_LINK: [path: string, label: string] = ['/console/admin', 'Operator'];

export function page(options: PageOptions, body: Html): string {
  const { viewer } = options;
  const links = viewer ? [...NAV, ...(viewer.admin ? [ADMIN_LINK] : [])] : [];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Quarry console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<header>
<a class="brand" href="/console">Quarry console</a>
${
  viewer
    ? html`<nav aria-label="Console"><ul>${links.map(
        ([href, label]) =>
          html`<li><a href="${href}"${options.current === href ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}</ul></nav>
<form class="inline" method="post" action="/console/sign-out"><input type="hidden" name="_csrf" value="${options.csrf}"><span class="muted">${viewer.email}</span> <button class="secondary" type="submit">Sign out</button></form>`
    : ''
}
</header>
<main id="main">
<h1>${options.title}</h1>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${body}
</main>
</body>
</html>
`.text;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** Whole numbers with thousands separators, as the console writes credits and units. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

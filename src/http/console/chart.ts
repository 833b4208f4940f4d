// Stacked daily bars drawn on the server as SVG: credits by day, one colour a dataset. The same numbers are
// always given as a table beside it; the chart is a picture of them.
import { count, type Html, html } from './html.js';

/** Okabe–Ito colours: told apart with the common colour-vision deficiencies. */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8C7B00', '#000000'];

export interface StackedDay {
  day: string;
  parts: Map<string, number>;
}

export function colourOf(series: string[], name: string): string {
  return PALETTE[series.indexOf(name) % PALETTE.length]!;
}

export function stackedBars(id: string, title: string, days: StackedDay[], series: string[]): Html {
  const width = 720;
  const height = 240;
  const left = 56;
  const bottom = 28;
  const plotHeight = height - bottom - 12;
  const totals = days.map((d) => [...d.parts.values()].reduce((a, b) => a + Math.max(0, b), 0));
  const top = niceCeiling(Math.max(1, ...totals));
  const step = (width - left - 8) / Math.max(1, days.length);
  const barWidth = Math.min(40, Math.max(2, step * 0.7));
  const y = (value: number) => 12 + plotHeight - (value / top) * plotHeight;
  const bars = days.map((d, i) => {
    let base = 0;
    const x = left + i * step + (step - barWidth) / 2;
    return series.map((name) => {
      const value = Math.max(0, d.parts.get(name) ?? 0);
      if (value === 0) return '';
      const rect = html`<rect x="${x.toFixed(1)}" y="${y(base + value).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(y(base) - y(base + value)).toFixed(1)}" fill="${colourOf(series, name)}"><title>${d.day} ${name}: ${count(value)} credits</title></rect>`;
      base += value;
      return rect;
    });
  });
  const ticks = (Number.isInteger(top / 2) ? [0, top / 2, top] : [0, top]).map(
    (
      v,
    ) => html`<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" font-size="11" fill="#4a5563">${count(Math.round(v))}</text>
<line x1="${left}" x2="${width - 8}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#c9d1da"/>`,
  );
  const labelEvery = Math.max(1, Math.ceil(days.length / 8));
  const labels = days.map((d, i) =>
    i % labelEvery === 0
      ? html`<text x="${(left + i * step + step / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle" font-size="11" fill="#4a5563">${d.day.slice(5)}</text>`
      : '',
  );
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title">
<title id="${id}-title">${title}</title>${ticks}${bars}${labels}</svg>
<ul class="legend">${series.map((name) => html`<li><svg width="14" height="14" aria-hidden="true"><rect width="14" height="14" fill="${colourOf(series, name)}"/></svg> ${name}</li>`)}</ul>`;
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * magnitude >= value) return m * magnitude;
  return 10 * magnitude;
}

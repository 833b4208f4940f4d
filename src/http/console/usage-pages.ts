// Usage: credits by day and dataset for the current and previous period (chart, table, CSV), credits by
// dataset and call type, and market units by day and key.
import type { FastifyInstance } from 'fastify';
import { creditsByDay, keysWithUse, type PeriodUsage } from '../../accounts/console-views.js';
import { usageByDay } from '../../accounts/usage-days.js';
import { OPERATIONS } from '../../datasets/registry.js';
import type { Deps } from '../../kernel/deps.js';
import { type StackedDay, stackedBars } from './chart.js';
import { count, type Html, html, page } from './html.js';
import { sendPage, signedIn } from './plugin.js';

const DATASET_OF = new Map(OPERATIONS.map((op) => [op.id, op.dataset]));
const datasetOf = (operation: string) => DATASET_OF.get(operation) ?? operation.split('.')[0] ?? operation;

export function registerUsagePages(scope: FastifyInstance, deps: Deps): void {
  scope.get('/usage', async (request, reply) => {
    const { context, viewer, account } = await signedIn(deps, request, reply);
    const periods = await creditsByDay(deps, account);
    const oldest = periods.at(-1)?.start.slice(0, 10) ?? account.periodStart.slice(0, 10);
    const units = (await usageByDay(deps, account.id, oldest)).units;
    // Keys are shown as the Keys page shows them, by the start of their text.
    const prefixOf = new Map((await keysWithUse(deps, account.id)).map((k) => [k.id, k.prefix]));
    const body = html`<p><a href="/console/usage.csv" download>Download credits by day as CSV</a></p>
${periods.map((period, i) => {
  if (i === 0)
    return periodSection(
      period,
      deps.clock().toISOString(),
      `Current period, from ${when(period.start)} UTC`,
      i,
    );
  const until = periods[i - 1]!.start;
  return periodSection(period, until, `Previous period, ${when(period.start)} to ${when(until)} UTC`, i);
})}
<h2>Market-data units by day and key</h2>
${
  units.length === 0
    ? html`<p class="muted">No market-data units used since ${oldest}.</p>`
    : html`<div class="table-wrap"><table class="cards"><thead><tr><th scope="col">Day</th><th scope="col">Key</th><th scope="col">Via</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Units</th></tr></thead><tbody>
${units.map((u) => html`<tr><td data-label="Day">${u.day}</td><td data-label="Key"><code>${prefixOf.get(u.keyId) ?? u.keyId}…</code></td><td data-label="Via">${u.door}</td><td class="num" data-label="Calls">${count(u.calls)}</td><td class="num" data-label="Units">${count(u.units)}</td></tr>`)}
</tbody></table></div>`
}`;
    return sendPage(
      reply,
      page({ title: 'Usage', current: '/console/usage', viewer, csrf: context.csrf }, body),
    );
  });

  scope.get('/usage.csv', async (request, reply) => {
    const { account } = await signedIn(deps, request, reply);
    const periods = await creditsByDay(deps, account);
    const lines = ['period_start,day,dataset,operation,calls,credits'];
    for (const period of [...periods].reverse()) {
      for (const row of period.rows) {
        lines.push(
          [period.start, row.day, datasetOf(row.operation), row.operation, row.calls, row.credits]
            .map(csvCell)
            .join(','),
        );
      }
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="quarry-usage-${account.periodStart.slice(0, 7)}.csv"`,
      )
      .send(`${lines.join('\r\n')}\r\n`);
  });
}

/** Every UTC day from `from` to `until` (ISO times), so that a day without calls shows as a gap. */
function daysBetween(from: string, until: string): string[] {
  const days: string[] = [];
  const last = until.slice(0, 10);
  for (let day = new Date(`${from.slice(0, 10)}T00:00:00Z`); ; day = new Date(day.getTime() + 86_400_000)) {
    const text = day.toISOString().slice(0, 10);
    if (text > last || days.length > 62) break;
    days.push(text);
  }
  return days;
}

/** A period boundary to the second: two periods opened within a minute still read apart. */
const when = (iso: string) => iso.slice(0, 19).replace('T', ' ');

function periodSection(period: PeriodUsage, until: string, title: string, index: number): Html {
  const days = new Map<string, StackedDay>(
    daysBetween(period.start, until).map((day) => [day, { day, parts: new Map() }]),
  );
  const datasets = new Set<string>();
  for (const row of period.rows) {
    const dataset = datasetOf(row.operation);
    datasets.add(dataset);
    const day = days.get(row.day) ?? { day: row.day, parts: new Map() };
    days.set(row.day, day);
    day.parts.set(dataset, (day.parts.get(dataset) ?? 0) + row.credits);
  }
  const series = [...datasets].sort();
  const { byCallType } = period;
  const spent = [...days.values()].filter((d) => d.parts.size > 0);
  return html`<section aria-labelledby="period-${index}"><h2 id="period-${index}">${title}</h2>
${
  spent.length === 0
    ? html`<p class="muted">No credits spent in this period.</p>`
    : html`
${stackedBars(`chart-${index}`, `Credits by day and dataset, ${title.split(',')[0]?.toLowerCase()}`, [...days.values()], series)}
<div class="table-wrap"><table class="cards"><caption class="muted">Credits by day and dataset</caption><thead><tr><th scope="col">Day</th>${series.map((s) => html`<th scope="col" class="num">${s}</th>`)}<th scope="col" class="num">Total</th></tr></thead><tbody>
${spent.map((d) => html`<tr><td data-label="Day">${d.day}</td>${series.map((s) => html`<td class="num" data-label="${s}">${count(d.parts.get(s) ?? 0)}</td>`)}<td class="num" data-label="Total">${count([...d.parts.values()].reduce((a, b) => a + b, 0))}</td></tr>`)}
</tbody></table></div>`
}
${
  byCallType.datasets.length === 0
    ? ''
    : html`<div class="table-wrap"><table class="cards"><caption class="muted">By dataset and call type</caption><thead><tr><th scope="col">Dataset</th><th scope="col">Call type</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Credits</th></tr></thead><tbody>
${byCallType.datasets.flatMap((d) => d.callTypes.map((t) => html`<tr><td data-label="Dataset">${d.dataset}</td><td data-label="Call type">${t.callType}</td><td class="num" data-label="Calls">${count(t.calls)}</td><td class="num" data-label="Credits">${count(t.credits)}</td></tr>`))}
</tbody></table></div>`
}</section>`;
}

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

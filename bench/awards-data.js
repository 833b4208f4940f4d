// Award rows at USAspending's scale for the benchmarks: agencies, recipients, titles and tickers drawn from the
// bundled award and EDGAR files, amounts and dates random (seeded, so every run makes the same rows), each with a
// Last Modified Date between 2008 and 2025.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { csvFields } from '../dist/ingest/source.js';

const ASSETS = path.resolve('assets');

/** Agencies, recipients and titles of the bundled USAspending responses and bulk CSV; tickers of EDGAR. */
function pools() {
  const agencies = new Set();
  const recipients = new Set();
  const titles = new Set();
  for (const file of readdirSync(path.join(ASSETS, 'awards/usaspending')).filter((f) =>
    f.endsWith('.json'),
  )) {
    const body = JSON.parse(readFileSync(path.join(ASSETS, 'awards/usaspending', file), 'utf8'));
    for (const r of body.results ?? []) {
      if (r['Awarding Agency']) agencies.add(r['Awarding Agency']);
      for (const name of [r['Recipient Name'], r['Sub-Awardee Name']]) if (name) recipients.add(name);
      for (const text of [r.Description, r['Sub-Award Description']])
        if (text) titles.add(String(text).slice(0, 300));
    }
  }
  const csv = readFileSync(
    path.join(ASSETS, 'awards/usaspending/usaspending_treasury_contracts.csv'),
    'utf8',
  );
  const [header, ...rows] = csv.split('\n').filter((l) => l.trim() !== '');
  const columns = csvFields(header);
  for (const row of rows) {
    const fields = csvFields(row);
    titles.add(fields[columns.indexOf('descriptionofcontractrequirement')]);
    recipients.add(fields[columns.indexOf('vendorname')]);
  }
  const tickers = Object.values(
    JSON.parse(readFileSync(path.join(ASSETS, 'sec/company_tickers.json'), 'utf8')),
  )
    .slice(0, 500)
    .map((t) => ({ ticker: t.ticker, cik: String(t.cik_str).padStart(10, '0'), name: t.title }));
  return { agencies: [...agencies], recipients: [...recipients], titles: [...titles], tickers };
}

/** A seeded generator, so every run measures the same rows. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** ROWS generated awards written to `file` as interchange records; the pools they were drawn from. */
export function generateAwards(file, ROWS) {
  const p = pools();
  const rand = random(20261123);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  writeFileSync(file, '');
  const chunk = [];
  for (let i = 0; i < ROWS; i += 1) {
    const listed = rand() < 0.1 ? pick(p.tickers) : null;
    const year = 2008 + Math.floor(rand() * 18);
    const date = `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
    const cents = Math.floor(rand() ** 3 * 5e11) - (rand() < 0.03 ? 2e8 : 0);
    chunk.push(
      JSON.stringify({
        source: 'usaspending',
        sourceAwardId: `BENCH_AWD_${i}`,
        jurisdiction: 'US',
        awardType: rand() < 0.8 ? 'prime' : 'modification',
        title: `${pick(p.titles)} ${i % 97}`,
        awardDate: date,
        currency: 'USD',
        obligatedAmount: `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`,
        recipient: { name: listed ? listed.name : pick(p.recipients) },
        agency: { name: pick(p.agencies) },
        sector: null,
        ticker: listed?.ticker ?? null,
        parentSourceAwardId: null,
        sourceUrl: `https://www.usaspending.gov/award/BENCH_AWD_${i}`,
        observedAt: '2026-11-23T00:00:00.000Z',
        entity: listed ? { ...listed, matchedBy: 'recipient_name' } : null,
        revenueComparison: null,
        details: { lastModified: `${2008 + Math.floor(rand() * 18)}-06-30` },
      }),
    );
    // Written a chunk at a time: a million rows are more text than one string may hold.
    if (chunk.length === 50_000) appendFileSync(file, `${chunk.splice(0).join('\n')}\n`);
  }
  if (chunk.length > 0) appendFileSync(file, `${chunk.join('\n')}\n`);
  return p;
}

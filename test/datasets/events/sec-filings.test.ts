// events from an 8-K's own documents: the primary document alone (the cover's company and date, the items
// from its headings, the sub-heading, the people of Item 5.02 with their quotes at their offsets) and the
// complete submission text file (acceptance time and items from the SEC header, the press release's title).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsImporter } from '../../../src/datasets/events/import.js';
import { importFile } from '../../../src/ingest/import.js';
import { loadFile } from '../../../src/ingest/run.js';
import { plainText } from '../../../src/ingest/xbrl/inline.js';
import { LOADERS } from '../../../src/runtime/loaders.js';
import { bearer, customer, type TestEnv, testEnv } from '../../helpers/env.js';
import { asset, real } from '../../helpers/real-data.js';

const NVDA_DOC = real('sec/events/8-K/0001045810-26-000024/nvda-20260302.htm');
const NVDA_TXT = asset('sec/8-K/0001045810-26-000024/0001045810-26-000024.txt');
const ADBE_TXT = asset('sec/8-K/0000796343-23-000044/0000796343-23-000044.txt');
const ADBE_INDEX = real('sec/events/8-K/0000796343-23-000044/0000796343-23-000044-index.html');
const ADBE_DOC = real('sec/events/8-K/0000796343-23-000044/adbe-20230315.htm');
const ADBE_RELEASE = real('sec/events/8-K/0000796343-23-000044/adbeex991q123.htm');
const TICKERS = asset('sec/company_tickers.json');
const NVDA_EVENT = '0001045810-26-000024';

type Event = Record<string, unknown> & {
  id: string;
  people: { name: string; quote: string; quoteOffset: number }[];
};

describe('quarry ingest sec: 8-K documents', () => {
  let env: TestEnv;
  let key: string;
  const sec = () => LOADERS.sec as NonNullable<typeof LOADERS.sec>;
  const event = async (symbol: string, id: string): Promise<Event> => {
    const res = await env.app.inject({ url: `/v1/events/${symbol}?limit=100`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    return res.json().data.events.find((e: Event) => e.id === id);
  };
  beforeAll(async () => {
    env = await testEnv();
    key = (await customer(env.deps)).key;
    await loadFile(env.deps, sec(), TICKERS);
  });
  afterAll(() => env.close());

  it('a primary document alone creates its event: company and date from the cover, items from its headings', async () => {
    expect(await loadFile(env.deps, sec(), NVDA_DOC)).toMatchObject({
      dataset: 'events',
      inserted: 1,
    });
    const e = await event('NVDA', NVDA_EVENT);
    expect(e).toMatchObject({
      ticker: 'NVDA',
      form: '8-K',
      filingDate: '2026-03-02',
      filedAt: '2026-03-02T05:00:00.000Z',
      items: ['5.02', '9.01'],
      kinds: ['leadership', 'other'],
      material: true,
      headline: 'Adoption of Fiscal Year 2027 Variable Compensation Plan',
      docUrl: 'https://www.sec.gov/Archives/edgar/data/1045810/000104581026000024/nvda-20260302.htm',
    });
    expect(e.summary).toMatch(/^On March 2, 2026, the Compensation Committee of the Board of Directors/);
  });

  it('Item 5.02 names its people with their roles, each quote found at its offset; the signer is none of them', async () => {
    const e = await event('NVDA', NVDA_EVENT);
    expect(e.people.map((p) => [p.name, (p as unknown as { role: string }).role])).toEqual([
      ['Jen-Hsun Huang', 'President and Chief Executive Officer'],
      ['Colette M. Kress', 'Executive Vice President and Chief Financial Officer'],
      ['Ajay K. Puri', 'Executive Vice President, Worldwide Field Operations'],
      ['Debora Shoquist', 'Executive Vice President, Operations'],
      ['Timothy S. Teter', 'Executive Vice President, General Counsel and Secretary'],
    ]);
    expect(new Set(e.people.map((p) => (p as unknown as { change: string }).change))).toEqual(
      new Set(['compensation']),
    );
    const text = plainText(readFileSync(NVDA_DOC, 'utf8'));
    for (const p of e.people) expect(text.slice(p.quoteOffset, p.quoteOffset + p.quote.length)).toBe(p.quote);
    expect(e.people.map((p) => p.name)).not.toContain('Rebecca Peters');
  });

  it("the submission's SEC header then gives the acceptance time; its items equal the document's headings", async () => {
    expect(await loadFile(env.deps, sec(), NVDA_TXT)).toMatchObject({ revised: 1, notes: [] });
    const e = await event('NVDA', NVDA_EVENT);
    // ACCEPTANCE-DATETIME 20260306161125 is Eastern (EST): 21:11:25Z.
    expect(e).toMatchObject({
      filedAt: '2026-03-06T21:11:25.000Z',
      filingDate: '2026-03-06',
      items: ['5.02', '9.01'],
    });
    expect(e.people).toHaveLength(5);
    // The document alone again knows only the cover: what the header said stays.
    expect(await loadFile(env.deps, sec(), NVDA_DOC)).toMatchObject({ unchanged: 1 });
    expect((await event('NVDA', NVDA_EVENT)).filedAt).toBe('2026-03-06T21:11:25.000Z');
  });

  it('a primary document takes the press release its exhibit index links, when it sits beside it', async () => {
    const { copyFileSync, mkdirSync } = await import('node:fs');
    const alone = path.join(env.dataDir, 'alone', '0000796343-23-000044');
    mkdirSync(alone, { recursive: true });
    copyFileSync(ADBE_DOC, path.join(alone, 'adbe-20230315.htm'));
    await loadFile(env.deps, sec(), path.join(alone, 'adbe-20230315.htm'));
    // Without the exhibit: the item's first paragraph, and a headline made from the item.
    const bare = await event('ADBE', '0000796343-23-000044');
    expect(bare.headline).toBe('ADOBE INC. 8-K: Results of Operations and Financial Condition');
    expect(bare.summary).toMatch(/^On March 15, 2023, Adobe Inc\. \(“Adobe”\) issued a press release/);
    // EDGAR's folder, the exhibit beside the document: the release's title and first paragraph.
    await loadFile(env.deps, sec(), ADBE_DOC);
    const told = await event('ADBE', '0000796343-23-000044');
    expect(told).toMatchObject({
      headline: 'Adobe Reports Record Revenue in Q1 Fiscal 2023',
      filingDate: '2023-03-15',
    });
    expect(told.summary).toMatch(/^SAN JOSE, Calif\. – March 15, 2023 – Adobe/);
  });

  it('an exhibit given in the same command is attached, whatever its name or folder', async () => {
    const { copyFileSync, mkdirSync } = await import('node:fs');
    const { ingestCommand } = await import('../../../src/cli/ingest.js');
    const docs = path.join(env.dataDir, 'given', 'documents');
    const exhibits = path.join(env.dataDir, 'given', 'exhibits');
    mkdirSync(docs, { recursive: true });
    mkdirSync(exhibits, { recursive: true });
    copyFileSync(ADBE_DOC, path.join(docs, '8-K.htm'));
    copyFileSync(ADBE_RELEASE, path.join(exhibits, 'EX-99.1.htm'));
    const accession = ['--accession', '0000796343-23-000044'];
    // Each case in a store of its own: a held event keeps what an earlier load told it.
    const headline = async (files: string[]) => {
      const fresh = await testEnv();
      try {
        await loadFile(fresh.deps, sec(), TICKERS);
        const { report, failed } = await ingestCommand(fresh.deps, ['sec', ...files, ...accession]);
        expect(failed, JSON.stringify(report)).toBe(false);
        const user = await customer(fresh.deps);
        const res = await fresh.app.inject({ url: '/v1/events/ADBE', headers: bearer(user.key) });
        return res.json().data.events[0] as { headline: string; summary: string };
      } finally {
        await fresh.close();
      }
    };
    // Alone, neither the linked name nor a file beside it: the item's own heading.
    expect((await headline([path.join(docs, '8-K.htm')])).headline).toBe(
      'ADOBE INC. 8-K: Results of Operations and Financial Condition',
    );
    // With the exhibit named in the same command (under another name, in another folder): its title.
    const told = await headline([path.join(docs, '8-K.htm'), path.join(exhibits, 'EX-99.1.htm')]);
    expect(told.headline).toBe('Adobe Reports Record Revenue in Q1 Fiscal 2023');
    expect(told.summary).toMatch(/^SAN JOSE, Calif\. – March 15, 2023 – Adobe/);
  });

  it("a release's title, not the letterhead's address above it", async () => {
    const { mkdirSync } = await import('node:fs');
    const folder = path.join(env.dataDir, 'letterhead', '0000796343-23-000044');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'adbe-20230315.htm'), readFileSync(ADBE_DOC, 'utf8'));
    // Adobe's address as its 8-K cover gives it, moved above the release's title as a letterhead.
    const release = readFileSync(ADBE_RELEASE, 'utf8');
    const title = release.indexOf('Adobe Reports Record Revenue in Q1');
    const block = release.lastIndexOf('<div', title);
    for (const letterhead of [
      '<div>Adobe Inc.</div><div>345 Park Avenue</div><div>San Jose, California 95110-2704</div>',
      '<div>Adobe Inc., P.O. Box 1480, San Jose, California</div>',
    ]) {
      writeFileSync(
        path.join(folder, 'adbeex991q123.htm'),
        `${release.slice(0, block)}${letterhead}${release.slice(block)}`,
      );
      await loadFile(env.deps, sec(), path.join(folder, 'adbe-20230315.htm'));
      expect((await event('ADBE', '0000796343-23-000044')).headline).toBe(
        'Adobe Reports Record Revenue in Q1 Fiscal 2023',
      );
    }
  });

  it("Adobe's earnings 8-K: the press release's title is the headline, its first paragraph the summary", async () => {
    await loadFile(env.deps, sec(), ADBE_TXT);
    const e = await event('ADBE', '0000796343-23-000044');
    expect(e).toMatchObject({
      filedAt: '2023-03-15T20:06:36.000Z',
      items: ['2.02', '9.01'],
      kinds: ['earnings', 'other'],
      headline: 'Adobe Reports Record Revenue in Q1 Fiscal 2023',
      people: [],
      docUrl: 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/adbe-20230315.htm',
    });
    expect(e.summary).toMatch(
      /^SAN JOSE, Calif\. – March 15, 2023 – Adobe \(Nasdaq:ADBE\) today reported financial results/,
    );
  });

  it('a submissions row and a document add to each other, in either order, and again change nothing', async () => {
    const row = {
      ticker: 'NVDA',
      cik: '0001045810',
      companyName: 'NVIDIA CORP',
      companyShortName: 'NVIDIA',
      accessionNumber: NVDA_EVENT,
      form: '8-K',
      filedAt: '2026-03-06T21:11:25.000Z',
      filingDate: '2026-03-06',
      docUrl: 'https://www.sec.gov/Archives/edgar/data/1045810/000104581026000024/nvda-20260302.htm',
      items: ['5.02', '9.01'],
      headline: null,
      summary: null,
      people: [],
    };
    const file = path.join(env.dataDir, 'nvda-row.ndjson');
    writeFileSync(file, `${JSON.stringify(row)}\n`);
    expect(await importFile(env.deps, eventsImporter, file)).toMatchObject({ unchanged: 1 });
    const e = await event('NVDA', NVDA_EVENT);
    expect(e.headline).toBe('Adoption of Fiscal Year 2027 Variable Compensation Plan');
    expect(e.people).toHaveLength(5);
  });

  it('an EDGAR index page is no filing: refused, nothing kept', async () => {
    const count = async () =>
      Number(
        (
          await env.deps.store.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const held = await count();
    await expect(loadFile(env.deps, sec(), ADBE_INDEX)).rejects.toThrow(
      /-index\.html: not a file this source reads/,
    );
    const page = path.join(env.dataDir, '8k-shaped.htm');
    writeFileSync(
      page,
      '<html><ix:nonNumeric name="dei:DocumentType" contextRef="c">8-K</ix:nonNumeric><p>No cover here.</p></html>',
    );
    await expect(loadFile(env.deps, sec(), page)).rejects.toThrow(/8k-shaped\.htm: the cover tags no CIK/);
    expect(await count()).toBe(held);
  });
});

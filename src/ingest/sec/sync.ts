// quarry sync sec: a watch list's filings from EDGAR, incremental. The registrants first (ticker → CIK),
// then per company its submissions JSON and company facts (fetched when they changed), the complete
// submission of each of its newest 8-Ks not fetched before (and the press release inside it, for guidance),
// and its newest inline-XBRL proxy. Every request is paced by SecClient.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../kernel/deps.js';
import { collectFile, type FileReport, type SyncReport } from '../collect.js';
import { loadFile, type SourceLoaders } from '../run.js';
import { SecClient } from './client.js';
import { submissionDocuments } from './submission.js';

/** 8-Ks and proxies looked at per company and run, newest first. */
export const RECENT_8KS = 20;
const RECENT_PROXIES = 1;

interface Recent {
  accessionNumber: string[];
  form: string[];
  primaryDocument: string[];
  isInlineXBRL?: number[];
}

const cik10 = (cik: string | number) => String(cik).padStart(10, '0');
const folder = (accession: string) => accession.replace(/-/g, '');

export async function syncSec(
  deps: Pick<Deps, 'store' | 'config' | 'clock' | 'counters'>,
  tickers: readonly string[],
  loaders: SourceLoaders,
): Promise<SyncReport> {
  const client = new SecClient(deps);
  const dir = path.join(deps.config.dataDir, 'downloads', 'sec');
  const files: FileReport[] = [];
  const fetched = async (url: string) =>
    (await deps.store.db.selectFrom('fetches').select('url').where('url', '=', url).executeTakeFirst()) !==
    undefined;
  const get = async (url: string, dest: string, options: { load?: Record<string, string> } = {}) => {
    const report = {
      name: path.basename(dest),
      url,
      ...(await collectFile(deps, url, dest, loaders, { pace: client.pace, ...options })),
    };
    files.push(report);
    return report;
  };

  await get(client.url('www', '/files/company_tickers.json'), path.join(dir, 'company_tickers.json'));
  for (const ticker of tickers) {
    const registrant = await deps.store.db
      .selectFrom('registrants')
      .select('cik')
      .where('ticker', '=', ticker.toUpperCase())
      .where('is_current', '=', 1)
      .where('listed', '=', 1)
      .executeTakeFirst();
    if (!registrant) {
      files.push({
        name: ticker,
        url: '',
        outcome: 'not_published',
        reason: 'no such ticker among EDGAR registrants',
      });
      continue;
    }
    const cik = cik10(registrant.cik);
    const submissions = path.join(dir, `CIK${cik}.json`);
    await get(client.url('data', `/submissions/CIK${cik}.json`), submissions);
    await get(
      client.url('data', `/api/xbrl/companyfacts/CIK${cik}.json`),
      path.join(dir, 'companyfacts', `CIK${cik}.json`),
    );
    if (!existsSync(submissions)) continue;
    const recent = (JSON.parse(readFileSync(submissions, 'utf8')) as { filings?: { recent?: Recent } })
      .filings?.recent;
    if (!recent) continue;
    const rows = recent.form.map((form, i) => ({
      form,
      accession: recent.accessionNumber[i]!,
      document: recent.primaryDocument[i]!,
      inline: recent.isInlineXBRL?.[i] === 1,
    }));
    for (const row of rows.filter((r) => r.form === '8-K' || r.form === '8-K/A').slice(0, RECENT_8KS)) {
      const url = client.url(
        'www',
        `/Archives/edgar/data/${Number(cik)}/${folder(row.accession)}/${row.accession}.txt`,
      );
      if (await fetched(url)) continue;
      const dest = path.join(dir, row.accession, `${row.accession}.txt`);
      const got = await get(url, dest);
      const release = got.outcome === 'loaded' ? await releaseOf(deps, dest, url, loaders) : null;
      if (release) files.push(release);
    }
    for (const row of rows.filter((r) => r.form === 'DEF 14A' && r.inline).slice(0, RECENT_PROXIES)) {
      const url = client.url(
        'www',
        `/Archives/edgar/data/${Number(cik)}/${folder(row.accession)}/${row.document}`,
      );
      if (!(await fetched(url))) await get(url, path.join(dir, row.accession, row.document));
    }
  }
  return { source: 'sec', files };
}

/**
 * The press release inside a loaded 8-K submission, written beside it in the folder named by its accession
 * (so the release loader knows the filing) and loaded for its guidance.
 */
async function releaseOf(
  deps: Pick<Deps, 'store' | 'clock'>,
  submission: string,
  url: string,
  loaders: SourceLoaders,
): Promise<FileReport | null> {
  const release = submissionDocuments(readFileSync(submission, 'utf8')).find((d) =>
    /^EX-99(\.1)?$/.test(d.type),
  );
  if (!release || !/outlook|targets|guidance/i.test(release.body)) return null;
  const dest = path.join(path.dirname(submission), release.file);
  writeFileSync(dest, release.body.replace(/\n$/, ''));
  const report = { name: release.file, url: `${url}#${release.file}` };
  try {
    return {
      ...report,
      outcome: 'loaded',
      load: await loadFile(deps, loaders, dest),
    };
  } catch (error) {
    return { ...report, outcome: 'failed', reason: (error as Error).message };
  }
}

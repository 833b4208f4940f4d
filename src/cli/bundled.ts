// The real agency files bundled with the project (assets/), loaded by `quarry serve --demo` into an empty store.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFile } from '../ingest/run.js';
import type { Deps } from '../kernel/deps.js';
import { LOADERS } from '../runtime/loaders.js';

const ASSETS = fileURLToPath(new URL('../../assets/', import.meta.url));

/**
 * Daily bars bundled for the market-data demo, split-adjusted as the history is (each file's own Close column,
 * never its dividend-adjusted one), with the options each needs: most name their instrument themselves.
 * ^GSPC is two files, the second's last bar (2026-06-29) a day still trading when it was saved.
 */
const MARKET_BARS: [file: string, options?: Record<string, string>][] = [
  ...['AAPL', 'MSFT', 'NVDA', 'TSLA', 'CL=F', 'EURUSD=X'].map(
    (t) => [`ahmedhussain47-Praktikum-Equity-Analysis-Embedding/${t}.csv`] as [string],
  ),
  ['Imman-dot-quant-pairs-trading/BARC.L.csv'],
  ['Imman-dot-quant-pairs-trading/VOD.L.csv'],
  ['elvisbinks-risk-on-risk-off-crypto/BTC-USD.csv'],
  ['jaiveer28-ets-simulator/^GSPC.csv', { ticker: '^GSPC' }],
  ['fsoaz-financial-market-dashboard/^GSPC.csv', { through: '2026-06-26' }],
];

/**
 * EDGAR's files, registrants first (the others find their ticker by CIK): events of Apple, Microsoft, NVIDIA
 * and Tesla, two 8-Ks read from their documents (Adobe's earnings, NVIDIA's 5.02), kpis of Apple and NVIDIA,
 * Adobe's guidance, Cabot's proxy and the CEO-pay table (fiscal 2021 pay).
 */
const SEC_FILES: [file: string, options?: Record<string, string>][] = [
  ['company_tickers.json'],
  ...['CIK0000320193.json', 'CIK0000789019.json', 'CIK0001045810.json', 'CIK0001318605.json'].map(
    (f) => [`submissions/${f}`] as [string],
  ),
  ['8-K/0000796343-23-000044/0000796343-23-000044.txt'],
  ['8-K/0001045810-26-000024/0001045810-26-000024.txt'],
  ['companyfacts/CIK0000320193.json'],
  ['companyfacts/CIK0001045810.json'],
  ['8-K/0000796343-23-000044/adbeex991q123.htm'],
  ['exec-pay/cabot.DEF14A.ixbrl.html'],
  ['exec-pay/ceo_data_pay_merged_sp500.csv', { 'fiscal-year': '2021' }],
];

/** Award files: USAspending's responses (searches and details before the transactions under them), TED's notices. */
const AWARD_FILES: [loader: string, file: string][] = [
  ...[
    '01-award-search-dod-mit.json',
    '03-award-detail-sample.json',
    '04-transactions-sample.json',
    'search_results_subawards.json',
    'grant.json',
    'idv.json',
    'loan.json',
    'spending_by_award_contracts.json',
    'search_results_grants.json',
    'search_results_idvs.json',
    'usaspending_treasury_contracts.csv',
  ].map((f) => ['usaspending', `usaspending/${f}`] as [string, string]),
  ...[
    '20-157399-001-EXP.xml',
    '20-157543-001-EXP.xml',
    '21-000061-001-EXP.xml',
    '22-086633-001-EXP.xml',
    '2024-OJS065-00191534.xml',
    '2024-OJS065-00191536.xml',
    '2024-OJS072-00215550.xml',
    '2024-OJS198-00611835.xml',
  ].map((f) => ['ted', `ted/${f}`] as [string, string]),
];

/** In load order: cpi weights are matched to the items, so cu.item comes first. */
export function bundledFiles(): [loader: string, file: string, options?: Record<string, string>][] {
  const fred = readdirSync(path.join(ASSETS, 'bls/fred'))
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .map((f) => ['bls', path.join(ASSETS, 'bls/fred', f)] as [string, string]);
  // Five consecutive disaggregated years (three complete ones make 3-year percentiles complete), and the
  // legacy report for 2021 and 2025.
  const cftc = [
    'fut_disagg_txt_2017.zip',
    'fut_disagg_txt_2018.zip',
    'fut_disagg_txt_2019.zip',
    'fut_disagg_txt_2020.zip',
    'fut_disagg_txt_2021.zip',
    'deacot2021.zip',
    'deacot2025.zip',
  ].map((f) => ['cftc', path.join(ASSETS, 'cftc', f)] as [string, string]);
  return [
    ...cftc,
    ['eia', path.join(ASSETS, 'eia/psw01.xls')],
    ['eia', path.join(ASSETS, 'eia/wpsr_table1_week_ending_2026-06-05.csv')],
    ['eia', path.join(ASSETS, 'eia/ngshistory.xls')],
    ['bls', path.join(ASSETS, 'bls/cu.item')],
    ['bls', path.join(ASSETS, 'bls/cu.series')],
    ['bls', path.join(ASSETS, 'bls/relative_importance_dec2021_to_dec2024.csv')],
    // Oldest vintage first, so that a value revised by a later publication ends current: FRED's of December
    // 2023, the components of August 2025, all items of March 2026.
    ...fred,
    ...readdirSync(path.join(ASSETS, 'bls/cu_2025-08'))
      .sort()
      .map((f) => ['bls', path.join(ASSETS, 'bls/cu_2025-08', f)] as [string, string]),
    ['bls', path.join(ASSETS, 'bls/cu.data.1.AllItems')],
    ...MARKET_BARS.map(
      ([file, options]) =>
        ['prices', path.join(ASSETS, 'market', file), options] as [string, string, Record<string, string>?],
    ),
    ...SEC_FILES.map(
      ([file, options]) =>
        ['sec', path.join(ASSETS, 'sec', file), options] as [string, string, Record<string, string>?],
    ),
    // The same company facts as the market API's statement fields (SALES_REV_TURN, …).
    ...['CIK0000320193.json', 'CIK0001045810.json'].map(
      (f) => ['sec-facts', path.join(ASSETS, 'sec/companyfacts', f)] as [string, string],
    ),
    ...AWARD_FILES.map(([loader, file]) => [loader, path.join(ASSETS, 'awards', file)] as [string, string]),
    ['yahoo', path.join(ASSETS, 'market/quote-AAPL.json')],
    ['yahoo', path.join(ASSETS, 'market/quote-OCDO.L.json')],
    // Short interest (market.short_interest), as Yahoo's key statistics gave it on 2025-02-24.
    ...['AAPL', 'AMZN-2025-02-24', 'CRM-2025-02-24', 'GOOG-2025-02-24'].map(
      (name) =>
        ['yahoo', path.join(ASSETS, `market/quoteSummary-defaultKeyStatistics-${name}.json`)] as [
          string,
          string,
        ],
    ),
  ];
}

export async function loadBundledData(deps: Deps, say: (line: string) => void): Promise<void> {
  const files = bundledFiles();
  say(`Loading the bundled agency data (${files.length} files)…`);
  const started = performance.now();
  let rows = 0;
  for (const [name, file, options] of files) {
    const loader = LOADERS[name];
    if (!loader) throw new Error(`no loader ${name}`);
    rows += (await loadFile(deps, loader, file, options)).lines;
  }
  say(`Loaded ${rows} records in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

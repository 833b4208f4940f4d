// The quarry command's help. The whole help is plain text and loads nothing, so that `quarry --help` starts
// as fast as Node does; the help of `ingest` and `sync` reads the sources from the registry, as those
// commands do.
import { UsageError } from './usage-error.js';

export const HELP = `quarry — financial and economic data over HTTP

  quarry serve [--demo] [--collect] run the HTTP server (--demo: demo account and keys on an empty store;
                                    --collect: also fetch the agencies' files on their release calendars)
  quarry collect                    fetch the agencies' files on their release calendars, without the server
  quarry mcp                        the MCP server over stdio for the key in QUARRY_API_KEY
  quarry migrate                    bring the store's schema up to date
  quarry accounts create --email EMAIL [--plan none|basic|desk|enterprise] [--market-plan free|paid] [--confirmed]
  quarry accounts confirm-email ID
  quarry accounts set-plan ID none|basic|desk|enterprise [--ends-at TIME]
  quarry accounts set-contract ID [--credits-per-month N] [--credits-per-minute N] [--max-keys N]
  quarry accounts set-market-plan ID free|paid
  quarry accounts set-balance ID N
  quarry accounts set-admin ID [--off]  make the account an operator in the console (--off: no longer)
  quarry accounts sign-out ID       end every console session of the account
  quarry accounts show ID
  quarry accounts list [--email TEXT]   accounts oldest first; --email: addresses containing TEXT
  quarry usage ID [--since YYYY-MM-DD]  credits and market-data units by day (default: this period and the last)
  quarry keys create ID --api datasets|market|news [--access market-data|full]
  quarry keys revoke KEY_ID
  quarry keys list ID
  quarry import DATASET FILE        load newline-delimited JSON records (docs/interchange.md)
  quarry ingest SOURCE FILE... [--published TIME] [options]
                                    load the sources' own files (quarry ingest --help: each source, its options)
  quarry sync SOURCE                fetch an agency's current files and load what changed (quarry sync --help)
  quarry sync sec [--tickers T,...]  a watch list's EDGAR filings (default QUARRY_SEC_TICKERS), paced to 10/s
  quarry sync usaspending [--agency A]... [--recipient R]... [--from D] [--to D]   prime contracts from USAspending
  quarry export DATASET --out FILE [--format csv|ndjson|parquet] [--as-of YYYY-MM-DD]
                                    the dataset's bulk file (current, or as known at the end of that day)
  quarry status                     what the store holds of each dataset, and how its collection stands
  quarry backup FOLDER              a consistent copy of the embedded store (its two files) while it serves

Configuration comes from the environment: PORT, HOST, QUARRY_DATA_DIR, DATABASE_URL, REDIS_URL,
DATA_API_ENABLED, TRUST_PROXY, LOG_LEVEL, QUARRY_MCP_RESULT_BYTES, QUARRY_API_KEY, QUARRY_CONTACT,
QUARRY_SEC_URL, QUARRY_SEC_TICKERS, QUARRY_FETCH_TIMEOUT_MS, and each agency's host (quarry sync --help
names their variables); see the README.
`;

/**
 * The help of one command: its lines of the help, and for ingest and sync what the registry declares; for
 * `ingest SOURCE`, that source's files and options alone.
 */
export async function commandHelp(command: string, topic?: string): Promise<string> {
  const lines = HELP.split('\n').filter((line) => line.startsWith(`  quarry ${command}`));
  if (lines.length === 0) throw new UsageError(`unknown command "${command}"`);
  if (command === 'ingest') lines.push('', ...(await ingestSources(topic)));
  if (command === 'sync') lines.push('', ...(await syncSources()));
  return `${lines.join('\n')}\n`;
}

/** Each source `quarry ingest` reads: the datasets it loads, the files it tells apart, the options it takes. */
async function ingestSources(only?: string): Promise<string[]> {
  const { LOADERS } = await import('../runtime/loaders.js');
  const { loaderList, PUBLISHED_OPTION } = await import('../ingest/run.js');
  const option = ([name, what]: [string, string], indent: string) => {
    const [value, ...text] = what.split(': ');
    return `${indent}--${name} ${value}  ${text.join(': ')}`;
  };
  const lines = ['Every source takes', option(Object.entries(PUBLISHED_OPTION)[0]!, '  '), ''];
  if (only !== undefined && !LOADERS[only])
    throw new UsageError(`ingest takes a source: ${Object.keys(LOADERS).join(', ')}; not "${only}"`);
  for (const [source, loaders] of Object.entries(LOADERS)) {
    if (only !== undefined && source !== only) continue;
    const list = loaderList(loaders);
    lines.push(`${source}: into ${[...new Set(list.map((l) => l.importer.dataset))].join(', ')}`);
    for (const l of list) {
      const options = Object.entries(l.options ?? {});
      // A loader that reads another's files beside it is named with them, not as a kind of its own.
      if (l.alongside) continue;
      const beside = list.filter((b) => b.alongside && b.kind === l.kind).map((b) => b.importer.dataset);
      if (l.kind) lines.push(`  ${l.kind.name}${beside.length ? `; also into ${beside.join(', ')}` : ''}`);
      lines.push(...options.map((o) => option(o, l.kind ? '    ' : '  ')));
    }
  }
  return lines;
}

/** Each agency `quarry sync` fetches from, with the variable that names its host. */
async function syncSources(): Promise<string[]> {
  const { AGENCY_HOSTS, COLLECTIONS } = await import('../datasets/registry.js');
  return [
    `  sources: ${[...COLLECTIONS.keys()].join(', ')}, sec, usaspending`,
    ...AGENCY_HOSTS.map((h) => `  ${h.variable}  the ${h.id} host (default ${h.url})`),
  ];
}

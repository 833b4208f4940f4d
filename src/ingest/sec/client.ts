// SEC EDGAR's fair-access rules: every request names the operator (QUARRY_CONTACT in the User-Agent), and
// all of Quarry's instances together send at most 10 requests a second. The pace is kept with the shared
// counters (Redis when configured): one request per 125 ms window. Any second, however placed, meets at most
// ten such windows (eight whole, two in part), so it holds at most ten requests.
import { ConfigError } from '../../kernel/config.js';
import type { Deps } from '../../kernel/deps.js';

const WINDOW_MS = 125;

export class SecClient {
  constructor(private readonly deps: Pick<Deps, 'config' | 'counters'>) {
    if (!deps.config.contact)
      throw new ConfigError(
        'QUARRY_CONTACT',
        'not set: SEC EDGAR requires a contact email in the User-Agent',
      );
  }

  /** An address on www.sec.gov (archives, company_tickers.json) or data.sec.gov (submissions, facts). */
  url(host: 'www' | 'data', path: string): string {
    return `${this.deps.config.sec[host]}${path}`;
  }

  /** Resolves when this instance may send its next request to EDGAR. */
  readonly pace = async (): Promise<void> => {
    for (;;) {
      const hit = await this.deps.counters.hit('sec:pace', 1, 1, WINDOW_MS);
      if (hit.allowed) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, hit.resetMs)));
    }
  };
}

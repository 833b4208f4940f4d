// SQLite answers on the event loop: better-sqlite3 runs a statement synchronously, and Kysely resolves its
// promise without a turn of the loop, so a caller awaiting one long read after another (twenty years of bars for
// each of ten symbols, a load's batches) holds the loop for all of them while every other request waits. A
// statement that held the loop longer than a few milliseconds now gives it a turn before its caller goes on; a
// short one (every statement of the hot path) does not, so it costs nothing there (docs/adr/025).

import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { ownTurn } from '../kernel/turns.js';

/** A statement that held the loop this long yields it before its caller continues. */
export const YIELD_AFTER_MS = 4;

export class YieldAfterLongQueries implements KyselyPlugin {
  private readonly started = new WeakMap<object, number>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.started.set(args.queryId, performance.now());
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const started = this.started.get(args.queryId);
    if (started !== undefined && performance.now() - started > YIELD_AFTER_MS) await ownTurn();
    return args.result;
  }
}

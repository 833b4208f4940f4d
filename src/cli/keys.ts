// quarry keys …
import { CLI_ACTOR } from '../accounts/activity.js';
import { KEY_APIS, MARKET_ACCESS } from '../accounts/key-text.js';
import { createKey, listKeys, revokeKey } from '../accounts/keys.js';
import type { Deps } from '../kernel/deps.js';
import { oneOf, parse } from './args.js';
import { say, UsageError } from './output.js';

/** The operator at the command line, as the account's activity names them. */

export async function keysCommand(deps: Deps, argv: string[]): Promise<object> {
  const [sub, ...rest] = argv;
  const db = deps.store.db;
  switch (sub) {
    case 'create': {
      const { args, values } = parse(rest, { api: { type: 'string' }, access: { type: 'string' } }, ['ID']);
      if (!values.api) throw new UsageError('keys create needs --api datasets|market|news');
      const key = await createKey(deps, {
        accountId: args.ID,
        api: oneOf(values.api, KEY_APIS, '--api'),
        ...(values.access === undefined ? {} : { access: oneOf(values.access, MARKET_ACCESS, '--access') }),
        actor: CLI_ACTOR,
      });
      say('The key is shown once; store it now.');
      return { id: key.id, key: key.key, prefix: key.prefix, api: key.api, access: key.access };
    }
    case 'revoke': {
      const { args } = parse(rest, {}, ['KEY_ID']);
      const key = await revokeKey(deps, { keyId: args.KEY_ID, actor: CLI_ACTOR });
      return { id: key.id, prefix: key.prefix, api: key.api, revokedAt: key.revokedAt };
    }
    case 'list': {
      const { args } = parse(rest, {}, ['ID']);
      return { accountId: args.ID, keys: await listKeys(db, args.ID) };
    }
    default:
      throw new UsageError(`unknown keys command "${sub ?? ''}"; use create, revoke or list`);
  }
}

// quarry accounts …
import {
  type Account,
  confirmEmail,
  createAccount,
  getAccount,
  listAccounts,
  setAdmin,
  setBalance,
  setContract,
  setMarketPlan,
  setPlan,
} from '../accounts/accounts.js';
import { CLI_ACTOR, recordActivity } from '../accounts/activity.js';
import { MARKET_PLANS, PLAN_IDS } from '../accounts/plans.js';
import { endAccountSessions } from '../accounts/sessions.js';
import { creditFigures } from '../accounts/views.js';
import type { Deps } from '../kernel/deps.js';
import { oneOf, parse, wholeNumber } from './args.js';
import { say, UsageError } from './output.js';

export async function accountsCommand(deps: Deps, argv: string[]): Promise<object> {
  const [sub, ...rest] = argv;
  const command = sub === undefined ? undefined : COMMANDS[sub];
  if (!command)
    throw new UsageError(
      `unknown accounts command "${sub ?? ''}"; use create, list, confirm-email, set-plan, set-contract, set-market-plan, set-balance, set-admin, sign-out or show`,
    );
  return command(deps, rest);
}

async function createCommand(deps: Deps, rest: string[]): Promise<object> {
  const { values } = parse(
    rest,
    {
      email: { type: 'string' },
      plan: { type: 'string' },
      'market-plan': { type: 'string' },
      confirmed: { type: 'boolean' },
    },
    [],
  );
  if (!values.email) throw new UsageError('accounts create needs --email EMAIL');
  const account = await createAccount(deps, {
    email: values.email,
    plan: values.plan === undefined ? 'none' : oneOf(values.plan, PLAN_IDS, '--plan'),
    marketPlan:
      values['market-plan'] === undefined
        ? 'free'
        : oneOf(values['market-plan'], MARKET_PLANS, '--market-plan'),
    emailConfirmed: values.confirmed === true,
  });
  return {
    id: account.id,
    email: account.email,
    plan: account.plan,
    emailConfirmed: account.emailConfirmed,
  };
}

async function confirmEmailCommand(deps: Deps, rest: string[]): Promise<object> {
  const { args } = parse(rest, {}, ['ID']);
  return view(await confirmEmail(deps, { accountId: args.ID }));
}

async function setPlanCommand(deps: Deps, rest: string[]): Promise<object> {
  const { args, values } = parse(rest, { 'ends-at': { type: 'string' } }, ['ID', 'PLAN']);
  const plan = oneOf(args.PLAN, PLAN_IDS, 'PLAN');
  const endsAt = values['ends-at'] === undefined ? null : isoTime(values['ends-at']);
  const account = await setPlan(deps, { accountId: args.ID, plan, endsAt });
  const detail = endsAt === null ? plan : `${plan}, ending ${endsAt}`;
  await recordActivity(deps.store.db, account.id, CLI_ACTOR, 'plan set', detail, deps.clock());
  if (plan === 'enterprise' && account.contract.creditsPerMonth === null) {
    say('note: enterprise credits per month come from the contract; set them with accounts set-contract');
  }
  return view(account);
}

async function setContractCommand(deps: Deps, rest: string[]): Promise<object> {
  const { args, values } = parse(
    rest,
    {
      'credits-per-month': { type: 'string' },
      'credits-per-minute': { type: 'string' },
      'max-keys': { type: 'string' },
    },
    ['ID'],
  );
  const change = {
    ...defined('creditsPerMonth', wholeNumber(values['credits-per-month'], '--credits-per-month')),
    ...defined('creditsPerMinute', wholeNumber(values['credits-per-minute'], '--credits-per-minute')),
    ...defined('maxKeys', wholeNumber(values['max-keys'], '--max-keys')),
  };
  if (Object.keys(change).length === 0) {
    throw new UsageError(
      'set-contract needs at least one of --credits-per-month, --credits-per-minute, --max-keys',
    );
  }
  return view(await setContract(deps, { accountId: args.ID, change }));
}

async function setMarketPlanCommand(deps: Deps, rest: string[]): Promise<object> {
  const { args } = parse(rest, {}, ['ID', 'PLAN']);
  const plan = oneOf(args.PLAN, MARKET_PLANS, 'PLAN');
  const account = await setMarketPlan(deps, { accountId: args.ID, plan });
  await recordActivity(deps.store.db, account.id, CLI_ACTOR, 'market plan set', plan, deps.clock());
  return view(account);
}

async function setBalanceCommand(deps: Deps, rest: string[]): Promise<object> {
  const { args } = parse(rest, {}, ['ID', 'N']);
  return view(await setBalance(deps, { accountId: args.ID, balance: wholeNumber(args.N, 'N') as number }));
}

async function listCommand(deps: Deps, rest: string[]): Promise<object> {
  const db = deps.store.db;
  const { values } = parse(rest, { email: { type: 'string' } }, []);
  const accounts = await listAccounts(db, values.email ? { email: values.email } : {});
  return {
    accounts: accounts.map((a) => ({
      id: a.id,
      email: a.email,
      emailConfirmed: a.emailConfirmed,
      plan: a.plan,
      marketPlan: a.marketPlan,
      createdAt: a.createdAt,
    })),
  };
}

async function setAdminCommand(deps: Deps, rest: string[]): Promise<object> {
  const { args, values } = parse(rest, { off: { type: 'boolean' } }, ['ID']);
  const account = await setAdmin(deps, { accountId: args.ID, admin: values.off !== true });
  return { id: account.id, email: account.email, admin: account.admin };
}

async function signOutCommand(deps: Deps, rest: string[]): Promise<object> {
  const db = deps.store.db;
  const { args } = parse(rest, {}, ['ID']);
  const account = await getAccount(db, args.ID);
  return { id: account.id, sessionsEnded: await endAccountSessions(db, account.id, deps.clock()) };
}

async function showCommand(deps: Deps, rest: string[]): Promise<object> {
  const db = deps.store.db;
  const { args } = parse(rest, {}, ['ID']);
  return view(await getAccount(db, args.ID));
}

const COMMANDS: Record<string, (deps: Deps, rest: string[]) => Promise<object>> = {
  create: createCommand,
  'confirm-email': confirmEmailCommand,
  'set-plan': setPlanCommand,
  'set-contract': setContractCommand,
  'set-market-plan': setMarketPlanCommand,
  'set-balance': setBalanceCommand,
  list: listCommand,
  'set-admin': setAdminCommand,
  'sign-out': signOutCommand,
  show: showCommand,
};

function defined<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

function isoTime(text: string): string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new UsageError(`--ends-at must be a date or time, got "${text}"`);
  return new Date(ms).toISOString();
}

function view(account: Account) {
  return {
    id: account.id,
    email: account.email,
    emailConfirmed: account.emailConfirmed,
    plan: account.plan,
    planEndsAt: account.planEndsAt,
    marketPlan: account.marketPlan,
    contract: account.contract,
    limits: account.limits,
    period: { start: account.periodStart, end: account.periodEnd },
    credits: creditFigures(account),
  };
}

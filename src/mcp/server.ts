// The MCP server for one admitted caller: lists the tools its key sees and answers tool calls through the same
// verbs and meters as the REST routes. Stateless: a server is made per HTTP request (or once for stdio).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  McpError,
  ErrorCode as RpcError,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Principal } from '../accounts/keys.js';
import { MeteredCall } from '../accounts/metered-call.js';
import type { RateWindow } from '../accounts/metering.js';
import { decodeCursor, encodeCursor, listingOf } from '../kernel/cursor.js';
import type { Deps } from '../kernel/deps.js';
import { AppError, ERROR_STATUS } from '../kernel/errors.js';
import type { MaybePromise } from '../kernel/steps.js';
import { checkText, compile, describeError, isRecord } from '../kernel/validation.js';
import { type Prepared, toolsFor } from './catalog.js';
import { type Position, pageOf } from './pages.js';
import type { Tool } from './tool.js';

export const SERVER_INFO = { name: 'quarry', version: '1.0.0' };

/** Bytes kept under the budget for the closing lines (totals and the continuation). */
const RESERVE = 600;

/** Who calls, as the transport knows them. */
export interface Caller {
  /** The key's API: which tools it sees. */
  api: 'market' | 'datasets';
  /** The principal of this call: the one admitted for an HTTP request; admitted again per call on stdio. */
  principal(): MaybePromise<Principal>;
  /** This call's request id, for the ledger and the logs. */
  requestId(): string;
  /** Told of failures on our side (the transport logs them with the request id). */
  failed(error: unknown): void;
}

/** What a key of the other kind is told when it calls a tool of `api`. */
const WRONG_KEY = {
  market: 'The market tools take svc_mcp_ keys; this is a datasets key (gds_), which sees the dataset tools.',
  datasets: 'The dataset tools take gds_ keys; this is a market key (svc_mcp_), which sees the market tools.',
} as const;

/** One validator for every server: the SDK would otherwise build a schema compiler per server, per request. */
const validator = new AjvJsonSchemaValidator();

export function createMcpServer(deps: Deps, caller: Caller): Server {
  const server = new Server(SERVER_INFO, {
    jsonSchemaValidator: validator,
    capabilities: { tools: { listChanged: false } },
    instructions:
      'Quarry market and economic data. Tickers in any form (AAPL, BARC.L, "BARC LN Equity"); field ids or ' +
      'terminal mnemonics. Long answers come in pages: call again with {continuation} alone.',
  });
  const tools = toolsFor(caller.api);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => t.listed),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const found = tools.find((t) => t.tool.name === request.params.name);
    if (!found) {
      const other = caller.api === 'market' ? 'datasets' : 'market';
      if (!toolsFor(other).some((t) => t.tool.name === request.params.name))
        throw new McpError(RpcError.InvalidParams, `Unknown tool ${request.params.name}`);
      // The tool exists for the other kind of key: say so, as REST answers a key at the wrong door.
      return failure(new AppError('wrong_key', WRONG_KEY[other]), {});
    }
    let principal: Principal;
    try {
      principal = await caller.principal();
    } catch (error) {
      return failure(error, {});
    }
    const who = { principal, requestId: caller.requestId(), failed: caller.failed };
    return call(deps, who, found, request.params.arguments ?? {});
  });
  return server;
}

/** One call's caller, admitted. */
interface Who {
  principal: Principal;
  requestId: string;
  failed(error: unknown): void;
}

async function call(
  deps: Deps,
  caller: Who,
  prepared: Prepared,
  given: Record<string, unknown>,
): Promise<CallToolResult> {
  const { tool } = prepared;
  const metered = new MeteredCall(deps, caller.principal);
  let continued = false;
  // A dataset call reports the balance once it was charged (or free), and on a free later page.
  const settle = (failed: boolean) =>
    metered.settle(
      { failed, balance: tool.api !== 'market' && (continued || metered.creditsSettled) },
      (error) => caller.failed(error),
    );
  try {
    const read = readArguments(deps, caller, tool, given);
    continued = read.continued;
    if (!continued) tool.check?.(deps, read.args);
    // A call is paid once, by its first page: the pages after it are free.
    if (!continued && tool.api === 'market') await metered.chargeUnits(1, 'mcp');
    const { credits } = tool;
    if (!continued && credits) {
      await metered.chargeCredits({
        price: credits.price(read.args),
        operation: credits.operation,
        requestId: caller.requestId,
        ...(credits.dataset ? { dataset: credits.dataset } : {}),
      });
    }
    const answer = await tool.run(deps, read.args);
    const body = prepared.wire(answer);
    await settle(false);
    return result(
      deps,
      caller,
      tool,
      read.args,
      body,
      read.from,
      continued,
      meteredMeta(deps, tool, metered, continued),
    );
  } catch (error) {
    if (!(error instanceof AppError)) caller.failed(error);
    // Given back: a failure on our side, and bad input found after the charge (as over HTTP).
    await settle(!(error instanceof AppError) || ERROR_STATUS[error.code] === 400);
    return failure(error, meteredMeta(deps, tool, metered, continued));
  }
}

/** The result's _meta: the units or credits the call took (or gave back), and the caller's standing. */
function meteredMeta(deps: Deps, tool: Tool, metered: MeteredCall, continued: boolean) {
  const now = deps.clock();
  if (tool.api === 'market') {
    if (continued) return { units: { used: 0, continuation: true } };
    const { units, refunded } = metered;
    if (refunded.units) return { units: { used: 0, refunded: refunded.units } };
    return units
      ? {
          units: {
            used: units.units,
            minute: windowMeta(units.minute, now),
            day: windowMeta(units.day, now),
          },
        }
      : {};
  }
  if (continued) return { credits: { cost: 0, remaining: metered.balance } };
  if (!metered.creditsSettled) return {};
  const { plan } = metered.principal.account;
  const { receipt, refunded, rate } = metered;
  if (refunded.credits)
    return { credits: { cost: 0, remaining: metered.balance, plan, refunded: refunded.credits } };
  if (!receipt || !rate) return { credits: { cost: 0, remaining: metered.balance, plan } };
  return {
    credits: { cost: receipt.cost, remaining: metered.balance, plan, perMinute: windowMeta(rate, now) },
  };
}

/** The arguments of a call, and where its page starts: from the top, or where a continuation says. */
function readArguments(deps: Deps, caller: Who, tool: Tool, given: Record<string, unknown>) {
  const { continuation } = given;
  if (continuation !== undefined) {
    if (typeof continuation !== 'string' || Object.keys(given).length !== 1) {
      throw new AppError('invalid_params', 'pass continuation alone, as the cut answer gave it');
    }
    const position = decodeCursor(deps.cursorSecret, listing(tool, caller), continuation, 'continuation');
    if (!isRecord(position.a))
      throw new AppError('invalid_params', 'continuation is not one this server gave');
    return {
      args: position.a,
      from: { element: Number(position.e), row: Number(position.r) },
      continued: true,
    };
  }
  // Checked before it is copied: the copy recurses, and a value nested thousands deep would exhaust the stack.
  checkText(given, 'argument');
  const args = structuredClone(given);
  const validate = compile(tool.input);
  if (!validate(args)) {
    const first = validate.errors?.[0];
    throw new AppError('invalid_params', first ? describeError(first, 'argument') : 'invalid arguments');
  }
  return { args, from: { element: 0, row: 0 }, continued: false };
}

/** A continuation belongs to one tool and one account: another's is refused, not misread. */
const listing = (tool: Tool, caller: Who) =>
  listingOf({ tool: tool.name, account: caller.principal.account.id });

function result(
  deps: Deps,
  caller: Who,
  tool: Tool,
  args: Record<string, unknown>,
  body: object,
  from: Position,
  continued: boolean,
  meta: Record<string, unknown>,
): CallToolResult {
  const page = pageOf(tool.layout, body, from, deps.config.mcpResultBytes, RESERVE);
  const cut = continued || page.next !== null;
  const lines = [page.text];
  const structured: Record<string, unknown> = { ...page.body };
  if (cut) {
    structured.page = { start: from, totals: page.totals };
    lines.push(
      `(part of ${page.totals.elements} items and ${page.totals.rows} rows, from item ${from.element + 1})`,
    );
  }
  if (page.next) {
    const position = { a: args, e: page.next.element, r: page.next.row };
    structured.continuation = encodeCursor(deps.cursorSecret, listing(tool, caller), position);
    lines.push(`More follows: call ${tool.name} with {"continuation": "${structured.continuation}"}`);
  }
  const summary = tool.layout.summary?.(body as never) ?? {};
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: structured,
    _meta: { ...summary, ...meta },
  };
}

function failure(error: unknown, meta: Record<string, unknown>): CallToolResult {
  const known = error instanceof AppError;
  const code = known ? error.code : 'internal_error';
  const message = known
    ? error.message
    : 'The call failed on our side; any credits or units charged were given back.';
  const retry = known ? error.retryAfterSeconds : null;
  const text = `${code}: ${message}${retry === null ? '' : ` Retry in ${retry} seconds.`}`;
  return {
    isError: true,
    content: [{ type: 'text', text }],
    _meta: { ...meta, error: { code, retryAfterSeconds: retry } },
  };
}

function windowMeta(window: RateWindow, now: Date) {
  return {
    limit: window.limit,
    remaining: Math.max(0, window.remaining),
    resetAt: new Date(now.getTime() + window.resetMs).toISOString(),
  };
}

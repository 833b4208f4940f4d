// The dataset tools, one per keyed dataset operation, generated from the operation descriptors: the same
// arguments (path and query parameters in one object), the same answer, charged in credits as the route is.
import { Envelope } from '../datasets/envelope.js';
import { argumentsSchema, operationInput } from '../datasets/estimate.js';
import type { DatasetOperation } from '../datasets/operation.js';
import { OPERATIONS } from '../datasets/registry.js';
import { csvLine, type Layout } from './pages.js';
import type { Tool } from './tool.js';

/** A dataset answer: every dataset's data is an object, its list (if any) the member its operation names. */
type Answer = { data: Record<string, unknown>; meta: Record<string, unknown> };

/** The answer's list member, where the operation has one and the answer holds it. */
function listName({ data }: Answer, member: string | undefined): string | null {
  return member !== undefined && Array.isArray(data[member]) ? member : null;
}

/** The answer's list, or the data alone as a list of one. */
function listOf(body: Answer, member: string | undefined): object[] {
  const name = listName(body, member);
  const list = name ? body.data[name] : null;
  return Array.isArray(list) ? list : [body.data];
}

/**
 * A dataset answer's list (the operation's `list` member) as a table: a column per member of its elements,
 * nested members by dotted path.
 */
const datasetLayout = (member: string | undefined): Layout<Answer> => ({
  list: (body) => listOf(body, member),
  withList: (body, list) => {
    const name = listName(body, member);
    const { data, meta } = body;
    return name ? { data: { ...data, [name]: list }, meta } : body;
  },
  preamble: (body) => {
    const { meta } = body;
    const name = listName(body, member);
    const first = listOf(body, member)[0];
    const { status, gaps, newestPeriod, asOf, knownFrom, readAsOf } = standing(body);
    // "dataset cot: partial; newest period 2025-03-18; known 2025-03-21T19:30:00.000Z (calendar); read as of …", a line
    // per gap, then the list's name and columns.
    const about = [
      [
        `dataset ${meta.dataset}${status ? `: ${status}` : ''}`,
        ...(newestPeriod ? [`newest period ${newestPeriod}`] : []),
        ...(asOf ? [`known ${asOf}${knownFrom ? ` (${knownFrom})` : ''}`] : []),
        ...(readAsOf ? [`read as of ${readAsOf}`] : []),
      ].join('; '),
      ...gaps.map((gap) => `gap: ${gap}`),
      ...(name ? [`${name}:`] : []),
    ].join('\n');
    return first ? `${about}\n${csvLine(columnsOf(body, member))}` : about;
  },
  summary: (body) => {
    const { status, gaps, ...times } = standing(body);
    return { ...(status ? { status, gaps } : {}), ...times };
  },
  head: () => '',
  line: (element, _row, body) => {
    const values = flat(element);
    return csvLine(columnsOf(body, member).map((column) => values[column]));
  },
});

/**
 * What an answer says of itself: its status and gaps where it has them (boards, a contract, a company's
 * answers), and meta's times: the newest period it holds, when its newest record became known, and the
 * instant it was read as of.
 */
function standing({ data, meta }: Answer): {
  status: string | null;
  gaps: string[];
  newestPeriod: string | null;
  asOf: string | null;
  knownFrom: string | null;
  readAsOf: string | null;
} {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    status: text(data.status),
    gaps: Array.isArray(data.gaps) ? data.gaps.map(String) : [],
    newestPeriod: text(meta.newestPeriod),
    asOf: text(meta.asOf),
    knownFrom: text(meta.knownFrom),
    readAsOf: text(meta.readAsOf),
  };
}

/** The table's columns: every dotted path any element has, in the order first met. */
const columns = new WeakMap<object, string[]>();
function columnsOf(body: Answer, member: string | undefined): string[] {
  let found = columns.get(body);
  if (!found) {
    const seen = new Set<string>();
    for (const element of listOf(body, member)) for (const path of Object.keys(flat(element))) seen.add(path);
    found = [...seen];
    columns.set(body, found);
  }
  return found;
}

/** An element's members as columns: nested objects by dotted path (position.long); arrays stay JSON. */
function flat(value: object, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [name, member] of Object.entries(value)) {
    const path = prefix + name;
    if (member !== null && typeof member === 'object' && !Array.isArray(member))
      flat(member, `${path}.`, out);
    else out[path] = member;
  }
  return out;
}

const toolName = (op: DatasetOperation) => `datasets.${op.id.replace(/[.-]/g, '_')}`;

export const DATASET_TOOLS: Tool[] = OPERATIONS.map((op) => ({
  api: 'datasets',
  name: toolName(op),
  title: op.summary,
  description: `${op.description} Arguments as the route ${op.url.replace(/:(\w+)/g, '{$1}')} takes them.`,
  input: argumentsSchema(op),
  output: Envelope(op.data),
  layout: datasetLayout(op.list),
  credits: { operation: op.id, dataset: op.dataset, price: (args) => op.price(args) },
  check: (_deps, args) => {
    operationInput(op, args);
  },
  run: (deps, args) => op.read(deps, operationInput(op, args)),
}));

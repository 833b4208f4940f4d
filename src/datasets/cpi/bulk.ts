// The cpi bulk files: one row per index value of a component, seasonally adjusted or not, in a month, with
// what the board reads beside it: the component's label and place in the hierarchy (from the item list, which
// describes codes rather than reports figures: the current one), and its relative importance in the December
// before the month that the tables hold, the weights the board applies.
import { column, derived, layout, revisionColumns } from '../bulk/layout.js';

/** A member of the component's current entry in the item list. */
const item = (member: string) => () =>
  `(SELECT i.${member} FROM cpi_items i WHERE i.item_code = cpi_index.item_code AND i.is_current = 1)`;

/**
 * The newest December before the month that the relative importance tables hold (for any component; a
 * revision changes a weight, never which Decembers are held): one seek of cpi_weights_period.
 */
const weightsPeriod = () =>
  '(SELECT max(x.weights_period) FROM cpi_weights x WHERE x.weights_period < cpi_index.period)';

/** The component's relative importance in that December, as the board weighs it (null where not listed). */
const weight = () =>
  `(SELECT w.weight FROM cpi_weights w WHERE w.item_code = cpi_index.item_code AND w.is_current = 1 ` +
  `AND w.weights_period = ${weightsPeriod()})`;

export const cpiBulk = layout({
  table: 'cpi_index',
  rowId: 'id',
  key: ['itemCode', 'seasonal', 'period'],
  columns: [
    column('itemCode', 'string', 'The BLS item code of the component (SA0 is all items).'),
    column('seasonal', 'string', 'S: seasonally adjusted; U: not.'),
    column('period', 'string', 'The month, YYYY-MM.'),
    column('value', 'number', 'The index level.'),
    derived('label', 'string', 'The component’s name in the BLS item list.', item('label')),
    derived('depth', 'integer', 'Its depth in the hierarchy (0: a major group).', item('depth')),
    derived(
      'parent',
      'string',
      'The item code of the group it belongs to (null at the top).',
      item('parent'),
    ),
    derived(
      'weightsPeriod',
      'string',
      'The December (YYYY-MM) whose relative importance weighs the components in this month: the newest before it.',
      weightsPeriod,
    ),
    derived(
      'weight',
      'number',
      'Its relative importance then, in percent of all items (null where the table does not list it).',
      weight,
    ),
    ...revisionColumns(),
  ],
});

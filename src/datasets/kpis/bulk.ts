// The kpis-guidance bulk files: one row per fact (a cited figure, or a guided range), with its evidence.
import { sql } from 'kysely';
import { column, layout, revisionColumns } from '../bulk/layout.js';

export const kpisBulk = layout({
  table: 'kpi_facts',
  rowId: 'row_id',
  key: ['factKey'],
  columns: [
    column(
      'factKey',
      'string',
      'What stays the same across revisions: kind, symbol, metric, period, basis, dimensions.',
    ),
    column('id', 'string', 'The fact revision.'),
    column('kind', 'string', 'kpi or guidance.'),
    column('symbol', 'string', "The company's ticker."),
    column('metricId', 'string', 'The metric.'),
    column('seriesKey', 'string', 'The series the fact belongs to.'),
    column('periodStart', 'date', 'The first day of the period.', { nullable: true }),
    column('periodEnd', 'date', 'The last day of the period.'),
    column('periodKind', 'string', 'The kind of period (quarter, year, …).'),
    column('fiscalYear', 'integer', 'The fiscal year.'),
    column('fiscalQuarter', 'integer', 'The fiscal quarter.', { nullable: true }),
    column('periodLabel', 'string', 'The period as the company names it.'),
    column('value', 'number', 'The figure (the middle of a guided range).'),
    column('low', 'number', "A guided range's low end.", { nullable: true }),
    column('high', 'number', "A guided range's high end.", { nullable: true }),
    column('unit', 'string', "The figure's unit."),
    column('currency', 'string', "The figure's currency.", { nullable: true }),
    column('basis', 'string', 'reported, adjusted, constant_currency or organic.'),
    column('dimensions', 'json', 'The dimensions the figure is for (an object).'),
    column('confidence', 'number', 'How sure the reading is, 0 to 1.'),
    column('supersedesId', 'string', 'The fact revision this one replaces.', { nullable: true }),
    column('conflict', 'boolean', 'Whether sources disagree on the figure.'),
    column('evidence', 'json', 'The passages that state the figure (an array).'),
    ...revisionColumns('as_of', { always: 'filing' }),
  ],
  // A fact's revisions say when each became known (as_of) but not when it was replaced: the revision known at
  // T is the newest one known by then.
  known: (at) =>
    at === null
      ? sql`is_current = 1`
      : sql`as_of <= ${at} AND NOT EXISTS (SELECT 1 FROM kpi_facts later WHERE later.fact_key = kpi_facts.fact_key AND later.as_of <= ${at} AND later.revision > kpi_facts.revision)`,
});

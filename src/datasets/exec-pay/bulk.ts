// The exec-pay bulk files: one row per proxy statement's CEO pay.
import { column, layout, revisionColumns } from '../bulk/layout.js';

export const execPayBulk = layout({
  table: 'exec_pay',
  rowId: 'row_id',
  key: ['id'],
  columns: [
    column('id', 'string', 'The proxy filing.'),
    column('ticker', 'string', "The company's ticker."),
    column('proxyYear', 'integer', 'The year of the proxy statement.'),
    column('fiscalYear', 'integer', 'The fiscal year the pay is for.'),
    column('fiscalYearLabel', 'string', 'The fiscal year as the company names it.'),
    column('filedAt', 'timestamp', 'When EDGAR accepted the proxy; empty where it is not known.', {
      nullable: true,
    }),
    column('meetingDate', 'date', 'The annual meeting.', { nullable: true }),
    column('ceoName', 'string', "The CEO's name."),
    column('ceoTitle', 'string', "The CEO's title."),
    column('ceoTotal', 'decimal', "The CEO's total pay, in dollars."),
    column('ceoPriorYearTotal', 'decimal', "The CEO's total pay of the year before.", { nullable: true }),
    column('payRatio', 'number', 'CEO pay to median employee pay.', { nullable: true }),
    column('medianEmployeePay', 'decimal', "The median employee's pay, in dollars.", { nullable: true }),
    column('sourceKind', 'string', 'filing (read from the proxy) or ceo-pay-table (a compilation).'),
    ...revisionColumns(),
  ],
});

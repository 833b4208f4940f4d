// Where the EIA publishes what the eia loader reads: the Weekly Petroleum Status Report's stocks workbook
// (with its release calendar) and Table 1, and the weekly natural gas storage history.
import type { Collection } from '../../../ingest/collect.js';

export const eiaCollection: Collection = {
  agency: 'eia',
  files: () => ['/wpsr/psw01.xls', '/wpsr/table1.csv', '/ngs/ngshistory.xls'],
};

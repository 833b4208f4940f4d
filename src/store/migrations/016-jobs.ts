import type { Kysely } from 'kysely';

/**
 * Scheduled jobs (collections): when each is next due, and who holds it. A holder leases a job until
 * `lease_until`; an instance killed mid-job loses its lease when that passes, and another takes the job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_at', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_run_at', 'text')
    .addColumn('last_outcome', 'text')
    .addColumn('last_new_at', 'text')
    .execute();
}

// The bytes a baseline server answers: the file BENCH_BODY_FILE names (an environment variable has a size
// limit), else BENCH_BODY.
import { readFileSync } from 'node:fs';

export function benchBody() {
  return process.env.BENCH_BODY_FILE
    ? readFileSync(process.env.BENCH_BODY_FILE)
    : Buffer.from(process.env.BENCH_BODY ?? '{}');
}

// Progress of a load on a terminal: the share of the file read, the records loaded, their rate and the time
// left, redrawn in place every 200 ms. Nothing is drawn when stderr is not a terminal.
import type { SourceFile } from './source.js';

export interface ProgressState {
  label: string;
  /** 0 to 1. */
  share: number;
  records: number;
  elapsedMs: number;
}

const WIDTH = 24;

/** One line of progress: `cot deacot2025.zip [#####   ] 41% 12,040 records 9,870/s ETA 2s`. */
export function progressLine({ label, share, records, elapsedMs }: ProgressState): string {
  const done = Math.round(share * WIDTH);
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(records / seconds) : 0;
  const eta = share > 0 && share < 1 ? Math.ceil((seconds * (1 - share)) / share) : null;
  return [
    `${label} [${'#'.repeat(done)}${' '.repeat(WIDTH - done)}]`,
    `${Math.floor(share * 100)}%`,
    `${records.toLocaleString('en-US')} records`,
    `${rate.toLocaleString('en-US')}/s`,
    eta === null ? (share >= 1 ? 'done' : 'ETA …') : `ETA ${clock(eta)}`,
  ].join(' ');
}

function clock(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  return m < 60
    ? `${m}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Draws progress while a file loads; returns the function that draws the last line and stops. */
export function showProgress(
  source: SourceFile,
  label: string,
  records: () => number,
  stream: NodeJS.WriteStream = process.stderr,
): () => void {
  if (!stream.isTTY) return () => {};
  const started = performance.now();
  const draw = () => {
    const state = {
      label: `${label} ${source.name}`,
      share: source.share(),
      records: records(),
      elapsedMs: performance.now() - started,
    };
    stream.write(`\r${progressLine(state)}\u001b[K`);
  };
  const timer = setInterval(draw, 200);
  return () => {
    clearInterval(timer);
    draw();
    stream.write('\n');
  };
}

// The README and docs/: every relative link names a file of the repository (and a heading of it, where it
// names one), and the README stays short enough to read to the end.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const ADRS = readdirSync('docs/adr').filter((f) => /^\d{3}-.+\.md$/.test(f));

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (file: string) =>
  new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchor(line.replace(/^#+ /, ''))),
  );

describe('the documentation', () => {
  for (const file of [...DOCS, 'docs/adr/README.md']) {
    it(`${file}: every relative link resolves`, () => {
      const text = readFileSync(file, 'utf8');
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] as string)
        .filter((target) => !/^[a-z]+:/.test(target));
      const broken = links.filter((target) => {
        const [where, heading] = target.split('#');
        const resolved = where ? path.join(path.dirname(file), where) : file;
        if (!existsSync(resolved)) return true;
        return heading !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(heading);
      });
      expect(broken).toEqual([]);
    });
  }

  it('the README is under 300 lines, its prose lines under 110 characters', () => {
    const lines = readFileSync('README.md', 'utf8').split('\n');
    expect(lines.length).toBeLessThan(300);
    let code = false;
    const long = lines.filter((line) => {
      if (line.startsWith('```')) code = !code;
      return !code && !line.startsWith('|') && line.length > 110;
    });
    expect(long).toEqual([]);
  });

  it('the decisions index lists every ADR once, with its status', () => {
    const index = readFileSync('docs/adr/README.md', 'utf8');
    for (const adr of ADRS) expect(index.match(new RegExp(`\\]\\(${adr}\\)`, 'g')), adr).toHaveLength(1);
    const rows = index.split('\n').filter((line) => /^\| \[\d{3}\]/.test(line));
    expect(rows).toHaveLength(ADRS.length);
    for (const row of rows) expect(row).toMatch(/\| (standing|superseded)[^|]*\|$/);
  });
});

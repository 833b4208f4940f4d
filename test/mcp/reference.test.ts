// The tools reference in docs/ is the one the tools' schemas write.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolsReference } from '../../src/mcp/reference.js';

describe('docs/mcp-tools.md', () => {
  it('is what npm run docs:tools writes from the tools as they are', () => {
    expect(readFileSync('docs/mcp-tools.md', 'utf8')).toBe(toolsReference());
  });

  it('documents every tool with its arguments', () => {
    const text = toolsReference();
    expect(text).toContain('### `market.short_interest` — Short interest');
    expect(text).toContain(
      '| `tickers` | yes | array of string, at most 100 | Up to 10 tickers, any form. |',
    );
    expect(text).toContain('### `datasets.cot_contract`');
    expect(text).toContain('| `contractCode` | yes | string |');
  });
});

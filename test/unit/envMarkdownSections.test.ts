import * as assert from 'node:assert/strict';
import { markdownSections } from '../../src/core/env/documentLoader';

describe('env: Markdown sections', () => {
  it('reads setext headings as CommonMark does, and not front matter, thematic breaks, lists or table rows', () => {
    const text = [
      '---',
      'title: front matter',
      '---',
      'Weather stations',
      '================',
      '',
      'Intro text.',
      '',
      '---',
      '',
      'A heading over',
      'two lines',
      '---------',
      '- a list item',
      '---',
      'a | b',
      '--- | ---',
      '1 | 2',
      '```',
      'code',
      '---',
      '```',
      '## Files',
      'Last words',
      '===',
    ].join('\n');
    const sections = markdownSections(text);
    assert.deepEqual(
      sections.filter((s) => s.level > 0).map((s) => [s.level, s.heading]),
      [
        [1, 'Weather stations'],
        [2, 'A heading over two lines'],
        [2, 'Files'],
        [1, 'Last words'],
      ],
    );
    const two = sections.find((s) => s.heading === 'A heading over two lines')!;
    assert.match(two.text, /^- a list item\n---\na \| b\n--- \| ---\n1 \| 2\n```\ncode\n---\n```$/);
  });
});

/** Every node status has its own colour in light and dark themes, visible against the editor background. */
import * as assert from 'node:assert/strict';
import { contrastRatio, deltaE, NODE_STATUSES, STATUS_COLOURS, THEME_BACKGROUNDS, themeKindOf, type ThemeKind } from '../../src/shared/statusColours';

describe('webview: status colours', () => {
  for (const kind of ['light', 'dark'] as ThemeKind[]) {
    it(`${kind}: every pair of statuses is at least 25 ΔE apart and every colour has 3:1 contrast`, () => {
      const palette = STATUS_COLOURS[kind];
      assert.deepEqual(Object.keys(palette).sort(), [...NODE_STATUSES].sort());
      for (let i = 0; i < NODE_STATUSES.length; i++) {
        for (let j = i + 1; j < NODE_STATUSES.length; j++) {
          const [a, b] = [NODE_STATUSES[i], NODE_STATUSES[j]];
          const difference = deltaE(palette[a], palette[b]);
          assert.ok(difference >= 25, `${kind}: ${a} ${palette[a]} and ${b} ${palette[b]} are only ${difference.toFixed(1)} ΔE apart`);
        }
        const status = NODE_STATUSES[i];
        const contrast = contrastRatio(palette[status], THEME_BACKGROUNDS[kind]);
        assert.ok(contrast >= 3, `${kind}: ${status} ${palette[status]} has ${contrast.toFixed(2)}:1 against ${THEME_BACKGROUNDS[kind]}`);
      }
    });
  }

  it('the measures agree with known values, and the theme kind follows the body classes', () => {
    assert.equal(contrastRatio('#000000', '#ffffff').toFixed(1), '21.0');
    assert.ok(deltaE('#d18616', '#bf8803') < 12, "VS Code's light charts-orange and charts-yellow are near twins (why the palette is our own)");
    assert.equal(themeKindOf(['vscode-light']), 'light');
    assert.equal(themeKindOf(['vscode-high-contrast-light']), 'light');
    assert.equal(themeKindOf(['vscode-dark']), 'dark');
    assert.equal(themeKindOf(['vscode-high-contrast']), 'dark');
  });
});

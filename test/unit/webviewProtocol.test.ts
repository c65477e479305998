import * as assert from 'node:assert/strict';
import { parseHostMessage, parseWebviewMessage, PatchSequencer, PROTOCOL_VERSION } from '../../src/shared/protocol';
import { buildExplorerHtml, contentSecurityPolicy, createNonce } from '../../src/host/explorer/explorerHtml';

describe('webview: protocol', () => {
  it('accepts well-formed messages both ways and rejects malformed ones with the field named', () => {
    assert.equal(parseWebviewMessage({ type: 'webview/ready', protocolVersion: PROTOCOL_VERSION }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'curation/accept', requestId: 'r1', trajectoryId: 't/1' }).ok, true);
    const missingId = parseWebviewMessage({ type: 'curation/prune', trajectoryId: 't/1' });
    assert.equal(missingId.ok, false);
    assert.match((missingId as { error: string }).error, /requestId/);
    assert.equal(parseWebviewMessage({ type: 'curation/delete-everything', requestId: 'r1' }).ok, false);
    assert.equal(parseWebviewMessage('webview/ready').ok, false);
    const patch = { type: 'session/patch', patchSeq: 1, events: [{ v: 1, seq: 5, ts: '2026-01-01T00:00:00Z', type: 'node/added', taskId: 't' }] };
    assert.equal(parseHostMessage(patch).ok, true);
    assert.equal(parseHostMessage({ ...patch, events: [{ v: 1, seq: 0, ts: 'x', type: 'node/added' }] }).ok, false, 'seq must be positive');
    const second = parseHostMessage({ ...patch, events: [{ v: 1, seq: 1, ts: 'x', type: 'run/started' }, { v: 1, seq: 2, ts: 'x', type: '' }] });
    assert.ok(!second.ok && /^events: event 1: /.test(second.error), 'the error names the first bad event');
    assert.equal(parseHostMessage({ type: 'session/snapshot', protocolVersion: 99, patchSeq: 0, info: {}, events: [] }).ok, false);
  });

  it('sequences patches: in order applies, a repeat is stale, a gap asks for a snapshot and blocks until one arrives', () => {
    const sequencer = new PatchSequencer();
    assert.equal(sequencer.accept(1), 'stale', 'nothing applies before the first snapshot');
    sequencer.snapshot(4);
    assert.equal(sequencer.accept(5), 'apply');
    assert.equal(sequencer.accept(5), 'stale');
    assert.equal(sequencer.accept(7), 'gap');
    assert.equal(sequencer.lastPatchSeq, 5);
    assert.equal(sequencer.accept(6), 'stale', 'after a gap only a snapshot resumes the stream');
    sequencer.snapshot(7);
    assert.equal(sequencer.accept(8), 'apply');
  });
});

describe('webview: HTML and CSP', () => {
  it('allows only the nonce script and the extension origin; no eval, no network, no inline handlers', () => {
    const nonce = createNonce();
    assert.notEqual(nonce, createNonce());
    const html = buildExplorerHtml({ cspSource: 'https://file+.vscode-resource.vscode-cdn.net', scriptUri: 'https://x/dist/webview.js', styleUri: 'https://x/dist/webview.css', nonce });
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1].replace(/&#39;|&apos;/g, "'");
    assert.ok(csp);
    assert.equal(csp, contentSecurityPolicy('https://file+.vscode-resource.vscode-cdn.net', nonce));
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`script-src 'nonce-${nonce.replace(/[+/]/g, '\\$&')}'(;|$)`));
    assert.match(csp, /connect-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|\*/);
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.equal(scripts.length, 1);
    assert.ok(scripts[0].includes(`nonce="${nonce}"`));
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    for (const tag of html.matchAll(/<style\b[^>]*>/g)) assert.ok(tag[0].includes(`nonce="${nonce}"`));
  });

  it('refuses a weak nonce and a cspSource that could inject directives; escapes the title', () => {
    const base = { cspSource: 'https://x', scriptUri: 'https://x/a.js', styleUri: 'https://x/a.css' };
    assert.throws(() => buildExplorerHtml({ ...base, nonce: 'abc' }), /nonce/);
    assert.throws(() => buildExplorerHtml({ ...base, cspSource: "https://x; script-src 'unsafe-eval'", nonce: createNonce() }), /cspSource/);
    assert.throws(() => buildExplorerHtml({ ...base, cspSource: "https://x 'unsafe-eval'", nonce: createNonce() }), /cspSource/);
    // What code-server / VS Code for the web passes: a source list with 'self'.
    const web = buildExplorerHtml({ ...base, cspSource: "'self' https://*.vscode-cdn.net", nonce: createNonce() });
    assert.match(web, /style-src 'self' https:\/\/\*\.vscode-cdn\.net 'nonce-/);
    const html = buildExplorerHtml({ ...base, nonce: createNonce(), title: '<img src=x onerror=alert(1)>' });
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(!html.includes('<img'));
  });
});

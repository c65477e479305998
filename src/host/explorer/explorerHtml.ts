/**
 * The explorer panel's HTML: one nonce'd script, one stylesheet, and a CSP that allows nothing else (no inline
 * script, no eval, no network). No vscode import, so the builder has its own unit test; the panel passes
 * `webview.cspSource` and URIs made by `webview.asWebviewUri`.
 */
import { randomBytes } from 'node:crypto';

export interface ExplorerHtmlOptions {
  /** `webview.cspSource`: the origin that serves the extension's files. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** A fresh nonce per page load (see `createNonce`). */
  nonce: string;
  title?: string;
}

/** 128 random bits, base64: a CSP nonce must be unguessable, so never Math.random. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

const NONCE_PATTERN = /^[A-Za-z0-9+/=]{16,}$/;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function buildExplorerHtml(options: ExplorerHtmlOptions): string {
  if (!NONCE_PATTERN.test(options.nonce)) throw new Error('explorer HTML: the nonce must be at least 16 base64 characters');
  // A source list: host sources, plus 'self' (VS Code for the web / code-server passes "'self' https://*.vscode-cdn.net").
  const sources = options.cspSource.trim().split(/\s+/);
  if (!options.cspSource.trim() || sources.some((source) => source !== "'self'" && /[;'",]/.test(source))) {
    throw new Error(`explorer HTML: unexpected characters in cspSource ${JSON.stringify(options.cspSource)}`);
  }
  const csp = contentSecurityPolicy(options.cspSource, options.nonce);
  const title = escapeAttribute(options.title ?? 'TOFFEE Explorer');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(options.styleUri)}" nonce="${escapeAttribute(options.nonce)}">
<title>${title}</title>
</head>
<body>
<div id="root" role="application" aria-label="${title}"></div>
<script nonce="${escapeAttribute(options.nonce)}" src="${escapeAttribute(options.scriptUri)}"></script>
</body>
</html>
`;
}

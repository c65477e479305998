// Sandbox worker entry (built by esbuild into dist/pythonWorker.js).
export {};

// Sandbox worker entry (built by esbuild into dist/sqlWorker.js).
export {};

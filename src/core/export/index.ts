/** Export: SFT datasets (openai / hf / sharegpt) with validators and chat-template render checks, benchmark-style task files, and the ICL demo library. */
export * from './types';
export * from './sft';
export * from './validate';
export * from './renderCheck';
export * from './sftExport';
export * from './select';
export * from './tasks';
export * from './demos';
export * from './runAdapter';
export * from './runExport';

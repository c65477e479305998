/** The trajectory explorer: search tree, MCTS loop and policies, prefix cache, verifier, baselines, benchmark. */
export * from './tree';
export * from './search';
export * from './policy';
export * from './stepRunner';
export * from './prefixCache';
export * from './verifier';
export * from './baselines';
export * from './bench';
export * from './judge';
export * from './audit';

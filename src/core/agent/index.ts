export * from './tools';
export * from './render';
export * from './prompt';
export * from './types';
export * from './episode';
export * from './session';

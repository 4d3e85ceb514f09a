export * from './collaboration';
export * from './deals';
export * from './money';
export * from './users';

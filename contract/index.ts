export * from './auth';
export * from './deals';
export * from './errors';
export * from './limits';
export * from './messages';
export * from './money';
export * from './users';

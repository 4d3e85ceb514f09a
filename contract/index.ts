export * from './auth';
export * from './deals';
export * from './errors';
export * from './limits';
export * from './money';
export * from './users';

/** The live connection: it depends on the features whose cached data its events patch, never the reverse. */

// Opens the socket on sign-in and turns its events into cache updates.
export { RealtimeProvider, type RealtimeProviderProps } from './realtime-provider';

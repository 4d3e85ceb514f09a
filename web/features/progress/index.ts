/** A deal's progress steps, tracked by its dealmaker. */

// The cache key of a deal's progress, for the realtime layer to reload it.
export { progressQueryKey } from './progress-api';
// 'Track Progress' and the Deal Progress Tracking dialog it opens.
export { TrackProgressButton } from './progress-dialog';

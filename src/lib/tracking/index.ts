// Public surface of the tracking area for pages and islands: the stub and its types (no worker or cipher code).
export { createTracker, sampled } from './tracker';
export type { Tracker, TrackerEnv, TrackEvent, WorkerHandle } from './tracker';
export type { TrackEntry, TrackerInit, QueuedEntry } from './types';

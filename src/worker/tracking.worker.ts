// Entry of the dedicated tracking worker (one per tab): exposes the tracking API to its page over Comlink.
import { expose } from 'comlink';
import { IdbQueue, openQueueDatabase } from '../lib/tracking/idb-queue';
import { TRACKING_BROWSER } from '../lib/product-rules';
import { createTrackingWorker } from './tracking-api';
import { fetchTransport } from './transport';

expose(
  createTrackingWorker({
    openQueue: async () => new IdbQueue(await openQueueDatabase()),
    transport: fetchTransport,
    locks: navigator.locks,
    channel: new BroadcastChannel(TRACKING_BROWSER.channel),
    userAgent: navigator.userAgent,
  }),
);

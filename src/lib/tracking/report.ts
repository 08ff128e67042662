// The tracking worker's error reports: the collector's message endpoint and the monitoring service (SPEC.md §8).
import { REQUEST, TRACKING, TRACKING_LIMITS, TRACKING_PATHS } from '../product-rules';
import { signMessage } from './cipher';
import type { Transport } from './credentials';
import type { AppInfo } from './types';

export interface ReportTarget {
  transport: Transport;
  appInfo: AppInfo;
  url(path: string): string;
}

/** SPEC.md §8: other codes and network failures go to the message endpoint and the monitoring service. */
export async function sendErrorReport(target: ReportTarget, appKey: string, message: string): Promise<void> {
  const text = message.slice(0, TRACKING_LIMITS.messageMaxLength);
  const { appVersion, deviceId, platform, platformVersion } = target.appInfo;
  const body = {
    deviceId,
    appKey,
    sign: signMessage(appKey, deviceId, text),
    appVersion,
    platform,
    platformVersion,
    message: text,
  };
  const monitor = { appKey, deviceId, kind: 'error', name: 'tracking', message: text, page: '' };
  // Failures of the error reports themselves are swallowed: reporting them would loop.
  await Promise.allSettled([
    target.transport.post(target.url(TRACKING_PATHS.message), body, REQUEST.timeoutMs),
    target.transport.post(target.url(TRACKING_PATHS.monitor), monitor, TRACKING.monitorTimeoutMs),
  ]);
}

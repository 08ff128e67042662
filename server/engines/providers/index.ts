// The provider adapters a deployment has keys for: each is registered only when its API key is set.
import type { ProviderConfig } from '../../tasks/config';
import type { Engine } from '../types';
import { falEngine } from './fal';

export function providerEngines(p: ProviderConfig): Engine[] {
  const engines: Engine[] = [];
  if (p.fal.key) engines.push(falEngine({ key: p.fal.key, queueUrl: p.fal.queueUrl, storageUrl: p.fal.storageUrl, webhookBaseUrl: p.webhookBaseUrl }));
  return engines;
}

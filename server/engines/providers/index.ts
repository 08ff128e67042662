// The provider adapters a deployment has keys for: each is registered only when its API key is set.
import type { Logger } from '../../log';
import type { Engine } from '../types';
import { dreamApiEngine } from './dreamapi';
import { elevenLabsEngine } from './elevenlabs';
import { falEngine, falLipSync, withFalOutages } from './fal';

/** Keys and base URLs of the provider adapters; an adapter without its key is not registered. */
export interface ProviderConfig {
  fal: { key: string | null; queueUrl: string; storageUrl: string };
  elevenlabs: { key: string | null; baseUrl: string };
  dreamapi: { key: string | null; baseUrl: string };
  /** Where providers send webhooks (…/engine-hooks/<engine>/<id>); null: poll. */
  webhookBaseUrl: string | null;
}

/** `log` is the server's: outages and jobs that may still bill reach the operator in its JSON lines, at its level. */
export function providerEngines(p: ProviderConfig, log?: Pick<Logger, 'warn'>): Engine[] {
  const engines: Engine[] = [];
  // One outage state for fal's engine and the lip sync it lends ElevenLabs: both run on the same account.
  const fal = p.fal.key
    ? withFalOutages({
        key: p.fal.key,
        queueUrl: p.fal.queueUrl,
        storageUrl: p.fal.storageUrl,
        webhookBaseUrl: p.webhookBaseUrl,
        log,
      })
    : null;
  if (fal) engines.push(falEngine(fal));
  // Dubbing with lip sync runs the dubbed audio through fal's lip-sync model when fal is configured.
  if (p.elevenlabs.key)
    engines.push(
      elevenLabsEngine({
        key: p.elevenlabs.key,
        baseUrl: p.elevenlabs.baseUrl,
        lipSync: fal ? falLipSync(fal) : null,
        log,
      }),
    );
  if (p.dreamapi.key) engines.push(dreamApiEngine({ key: p.dreamapi.key, baseUrl: p.dreamapi.baseUrl, log }));
  return engines;
}

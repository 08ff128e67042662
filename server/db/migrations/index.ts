// The ordered list of schema migrations; append new ones here with the next version number, never reorder.
import type { Migration } from './migration.ts';
import * as initial from './001_initial.ts';
import * as tracking from './002_tracking.ts';
import * as accounts from './003_accounts.ts';
import * as tasks from './004_tasks.ts';
import * as payments from './005_payments.ts';
import * as contact from './006_contact.ts';
import * as signInAttempts from './007_sign_in_attempts.ts';
import * as taskOutputsExpired from './008_task_outputs_expired.ts';
import * as operations from './009_operations.ts';
import * as apiKeysRequests from './010_api_keys_requests.ts';
import * as shareLinksPosters from './011_share_links_posters.ts';
import * as infoAsked from './012_info_asked.ts';
import * as providerJobs from './013_provider_jobs.ts';
import * as providerCosts from './014_provider_costs.ts';
import * as engineSlots from './015_engine_slots.ts';
import * as trackingPartitions from './016_tracking_partitions.ts';
import * as developerTools from './017_developer_tools.ts';
import * as retiredApiKeys from './018_retired_api_keys.ts';

export type { Engine, Migration } from './migration.ts';

export const migrations: readonly Migration[] = [
  { version: 1, name: initial.name, up: initial.up },
  { version: 2, name: tracking.name, up: tracking.up },
  { version: 3, name: accounts.name, up: accounts.up },
  { version: 4, name: tasks.name, up: tasks.up },
  { version: 5, name: payments.name, up: payments.up },
  { version: 6, name: contact.name, up: contact.up },
  { version: 7, name: signInAttempts.name, up: signInAttempts.up },
  { version: 8, name: taskOutputsExpired.name, up: taskOutputsExpired.up },
  { version: 9, name: operations.name, up: operations.up },
  { version: 10, name: apiKeysRequests.name, up: apiKeysRequests.up },
  { version: 11, name: shareLinksPosters.name, up: shareLinksPosters.up },
  { version: 12, name: infoAsked.name, up: infoAsked.up },
  { version: 13, name: providerJobs.name, up: providerJobs.up },
  { version: 14, name: providerCosts.name, up: providerCosts.up },
  { version: 15, name: engineSlots.name, up: engineSlots.up },
  { version: 16, name: trackingPartitions.name, up: trackingPartitions.up },
  { version: 17, name: developerTools.name, up: developerTools.up },
  { version: 18, name: retiredApiKeys.name, up: retiredApiKeys.up },
];

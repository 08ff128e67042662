// Operator commands (npm run admin): list users, suspend or restore a user, grant credits, invitations, revoke a key,
// read the audit trail, provider costs.
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { createInvitation, findUser } from '../accounts';
import { listAudit, recordAudit } from '../audit';
import { applyCreditChange } from '../credits';
import { costLines, costsByEngine, parseRates, parseSince } from './costs';
import type { Schema } from '../db';
import { AUDIT, INVITATION, normalizeEmail } from '../../src/lib/product-rules';

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  list-users [--limit N] [--search TEXT]       newest users first, with credits and status
  suspend <userId|email> [--reason TEXT]        set the suspension flag (SPEC.md §3 valid)
  unsuspend <userId|email> [--reason TEXT]      clear it
  grant <userId|email> <credits> [--reason TEXT]  add credits; to take back, write -- -N (never below zero)
  create-invitation [--code CODE] [--credits N] [--max-uses N] [--expires-days N] [--reason TEXT]
  revoke-key <userId|email> [--reason TEXT]     delete the user's API key; calls with it fail from now on
  audit [--limit N] [--subject ID|EMAIL|CODE] [--action NAME] [--since ISO-DATE]
                                                the audit trail, newest first
  costs [--since YYYY-MM-DD] [--rate UNIT=USD]  per engine: tasks, credits charged, provider cost, margin
                                                (--rate prices a unit, e.g. dreamapi-credits=0.01; repeatable)
  backup <file>                                 copy the SQLite database while the server runs (online backup)
  restore <file> [--force]                      put a backup in place of the database (server stopped)

Every action is recorded in the audit trail with who (--by NAME, else ADMIN_ACTOR, else your login name),
when, and why (--reason; --note is the same).
`;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Runs an option parser, turning its complaint into a UsageError (printed with the usage). */
function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

type Print = (line: string) => void;

function integer(value: string | undefined, name: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`${name} is required`);
    return fallback;
  }
  if (!/^-?\d+$/.test(value)) throw new UsageError(`${name} must be a whole number, got "${value}"`);
  return Number(value);
}

async function userOrFail(db: Kysely<Schema>, idOrEmail: string | undefined) {
  if (!idOrEmail) throw new UsageError('a user id or email is required');
  const user = await findUser(db, idOrEmail);
  if (!user) throw new UsageError(`no user with id or email "${idOrEmail}"`);
  return user;
}

export interface AdminOptions {
  /**
   * Who runs the command when --by is not given, e.g. operator:alice (cli.ts derives it from ADMIN_ACTOR or the login).
   */
  operator?: string;
}

export async function runAdmin(db: Kysely<Schema>, argv: string[], print: Print, o: AdminOptions = {}): Promise<void> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      limit: { type: 'string' },
      search: { type: 'string' },
      note: { type: 'string' },
      code: { type: 'string' },
      credits: { type: 'string' },
      'max-uses': { type: 'string' },
      'expires-days': { type: 'string' },
      reason: { type: 'string' },
      by: { type: 'string' },
      subject: { type: 'string' },
      action: { type: 'string' },
      since: { type: 'string' },
      rate: { type: 'string', multiple: true },
    },
  });
  const actor = values.by ? `operator:${values.by}` : (o.operator ?? 'operator:unknown');
  const reason = values.reason ?? values.note ?? 'no reason given';
  switch (command) {
    case 'list-users': {
      const limit = integer(values.limit, '--limit', 50);
      let query = db.selectFrom('users').selectAll().orderBy('created_at', 'desc').limit(limit);
      // Addresses are stored normalised; PostgreSQL's LIKE is case-sensitive, SQLite's is not.
      if (values.search) query = query.where('email', 'like', `%${normalizeEmail(values.search)}%`);
      const users = await query.execute();
      print(['id', 'email', 'credits', 'suspended', 'created'].join('\t'));
      for (const u of users) {
        print(
          [u.id, u.email ?? '-', u.credits, u.suspended ? 'yes' : 'no', new Date(u.created_at).toISOString()].join(
            '\t',
          ),
        );
      }
      return;
    }
    case 'suspend':
    case 'unsuspend': {
      const user = await userOrFail(db, positionals[0]);
      const suspended = command === 'suspend' ? 1 : 0;
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ suspended, updated_at: Date.now() }).where('id', '=', user.id).execute();
        await recordAudit(trx, {
          actor,
          action: suspended ? AUDIT.actions.suspend : AUDIT.actions.unsuspend,
          subject: user.id,
          reason,
          detail: { email: user.email },
        });
      });
      print(`${user.id} ${suspended ? 'suspended' : 'restored'}`);
      return;
    }
    case 'grant': {
      const user = await userOrFail(db, positionals[0]);
      const delta = integer(positionals[1], 'credits');
      if (delta === 0) throw new UsageError('credits must not be 0');
      const { balance } = await db.transaction().execute((trx) =>
        applyCreditChange(trx, {
          userId: user.id,
          delta,
          reason: 'grant',
          reference: values.note ?? values.reason ?? 'operator',
          audit: { actor, action: AUDIT.actions.grant, reason },
        }),
      );
      print(`${user.id} balance ${balance}`);
      return;
    }
    case 'create-invitation': {
      const days = values['expires-days'] === undefined ? undefined : integer(values['expires-days'], '--expires-days');
      const maxUses = integer(values['max-uses'], '--max-uses', 1);
      const credits = integer(values.credits, '--credits', INVITATION.credits);
      if (maxUses < 1 || credits < 1 || (days !== undefined && days < 1))
        throw new UsageError('--credits, --max-uses and --expires-days must be 1 or more');
      const invitation = await createInvitation(db, {
        ...(values.code ? { code: values.code } : {}),
        credits,
        maxUses,
        expiresAt: days === undefined ? null : Date.now() + days * 86_400_000,
      });
      await recordAudit(db, {
        actor,
        action: AUDIT.actions.invitation,
        subject: invitation.code,
        reason,
        detail: { credits, maxUses, expiresAt: invitation.expires_at },
      });
      print(
        `${invitation.code}\tcredits ${invitation.credits}\tmax uses ${invitation.max_uses}\texpires ${invitation.expires_at ? new Date(invitation.expires_at).toISOString() : 'never'}`,
      );
      return;
    }
    case 'revoke-key': {
      const user = await userOrFail(db, positionals[0]);
      const removed = await db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('api_keys').where('user_id', '=', user.id).executeTakeFirst();
        const count = Number(result.numDeletedRows);
        if (count > 0)
          await recordAudit(trx, {
            actor,
            action: AUDIT.actions.keyRevoke,
            subject: user.id,
            reason,
            detail: { keys: count },
          });
        return count;
      });
      if (removed === 0) throw new UsageError(`${user.id} has no API key`);
      print(`${user.id} API key revoked`);
      return;
    }
    case 'audit': {
      const since = values.since === undefined ? undefined : Date.parse(values.since);
      if (Number.isNaN(since))
        throw new UsageError(
          `--since must be a date such as 2025-01-31 or 2025-01-31T12:00:00Z, got "${values.since}"`,
        );
      // A subject may be given as an email: entries name the user by id.
      const subject = values.subject ? ((await findUser(db, values.subject))?.id ?? values.subject) : undefined;
      const rows = await listAudit(db, {
        limit: integer(values.limit, '--limit', AUDIT.defaultListLimit),
        subject,
        action: values.action,
        since,
      });
      print(['time', 'actor', 'action', 'subject', 'reason', 'detail'].join('\t'));
      for (const r of rows)
        print(
          [
            new Date(r.at).toISOString(),
            r.actor,
            r.action,
            r.subject,
            r.reason,
            r.detail ? JSON.stringify(r.detail) : '-',
          ].join('\t'),
        );
      return;
    }
    case 'costs': {
      const { since, rates } = usage(() => ({ since: parseSince(values.since), rates: parseRates(values.rate) }));
      for (const line of costLines(await costsByEngine(db, { since, rates }))) print(line);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

// Operator commands (npm run admin): list users, suspend or restore a user, grant credits, create invitations.
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { createInvitation, findUser } from '../accounts';
import { applyCreditChange } from '../credits';
import type { Schema } from '../db';
import { INVITATION, normalizeEmail } from '../../src/lib/spec';

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  list-users [--limit N] [--search TEXT]       newest users first, with credits and status
  suspend <userId|email>                        set the suspension flag (SPEC.md §3 valid)
  unsuspend <userId|email>                      clear it
  grant <userId|email> <credits> [--note TEXT]  add credits; to take back, write -- -N (never below zero)
  create-invitation [--code CODE] [--credits N] [--max-uses N] [--expires-days N]
`;

export class UsageError extends Error {
  override name = 'UsageError';
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

export async function runAdmin(db: Kysely<Schema>, argv: string[], print: Print): Promise<void> {
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
    },
  });
  switch (command) {
    case 'list-users': {
      const limit = integer(values.limit, '--limit', 50);
      let query = db.selectFrom('users').selectAll().orderBy('created_at', 'desc').limit(limit);
      // Addresses are stored normalised; PostgreSQL's LIKE is case-sensitive, SQLite's is not.
      if (values.search) query = query.where('email', 'like', `%${normalizeEmail(values.search)}%`);
      const users = await query.execute();
      print(['id', 'email', 'credits', 'suspended', 'created'].join('\t'));
      for (const u of users) {
        print([u.id, u.email ?? '-', u.credits, u.suspended ? 'yes' : 'no', new Date(u.created_at).toISOString()].join('\t'));
      }
      return;
    }
    case 'suspend':
    case 'unsuspend': {
      const user = await userOrFail(db, positionals[0]);
      const suspended = command === 'suspend' ? 1 : 0;
      await db.updateTable('users').set({ suspended, updated_at: Date.now() }).where('id', '=', user.id).execute();
      print(`${user.id} ${suspended ? 'suspended' : 'restored'}`);
      return;
    }
    case 'grant': {
      const user = await userOrFail(db, positionals[0]);
      const delta = integer(positionals[1], 'credits');
      if (delta === 0) throw new UsageError('credits must not be 0');
      const { balance } = await db
        .transaction()
        .execute((trx) => applyCreditChange(trx, { userId: user.id, delta, reason: 'grant', reference: values.note ?? 'operator' }));
      print(`${user.id} balance ${balance}`);
      return;
    }
    case 'create-invitation': {
      const days = values['expires-days'] === undefined ? undefined : integer(values['expires-days'], '--expires-days');
      const maxUses = integer(values['max-uses'], '--max-uses', 1);
      const credits = integer(values.credits, '--credits', INVITATION.credits);
      if (maxUses < 1 || credits < 1 || (days !== undefined && days < 1)) throw new UsageError('--credits, --max-uses and --expires-days must be 1 or more');
      const invitation = await createInvitation(db, {
        ...(values.code ? { code: values.code } : {}),
        credits,
        maxUses,
        expiresAt: days === undefined ? null : Date.now() + days * 86_400_000,
      });
      print(`${invitation.code}\tcredits ${invitation.credits}\tmax uses ${invitation.max_uses}\texpires ${invitation.expires_at ? new Date(invitation.expires_at).toISOString() : 'never'}`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

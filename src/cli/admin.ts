import { parseArgs } from 'node:util';
import { stripeProvider } from '../adapters/stripe.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/prepare.js';
import { createMailer } from '../mail/mailer.js';
import { eraseAccountCommand, exportAccountCommand, stdoutWriter } from './admin-accounts.js';
import { decideClaimCommand, listClaims } from './admin-claims.js';
import { limitClient, listClientsTable } from './admin-clients.js';
import { ADMIN_OPTIONS, type AdminContext, type AdminOptions, type OptionName } from './admin-context.js';
import { createKey, listKeysTable, revoke, rotate } from './admin-keys.js';
import { checkLedgerCommand, ledgerReport, listFeesOwed, reconcileLedgerCommand } from './admin-ledger.js';
import { decideAppealCommand, decideReportCommand, listAppeals, listReports } from './admin-notices.js';
import {
  addOperatorCommand,
  exportAuditCommand,
  listOperatorsCommand,
  removeOperatorCommand,
} from './admin-operators.js';
import { approve, listRequests, reject } from './admin-requests.js';
import { approveVerification, listVerifications, rejectVerification, unverify } from './admin-verifications.js';

const USAGE = `Usage: npm run admin -- <command>

Reviews developer key requests and helper verifications, manages API keys and answers data requests
(export, erasure) in DATABASE_URL (default sqlite:./data/marketplace.db),
the database the server uses.

  requests list                     pending requests, oldest first; those waiting over 24 hours are marked OVERDUE
  requests approve <kr_id>          create the account (or reuse it, by email) and a key, and email the key;
                                    if the email fails, the key is revoked and the request is pending again
  requests reject <kr_id> --reason TEXT
                                    reject the request; the reason is stored and emailed to the requester
  keys list                         every key: account, masked key, created, state (never the key itself)
  keys create --email E --name N [--commercial] [--organisation O]
                                    issue a key without a request; prints the key alone on the last line
  keys rotate <key_id>              issue a successor, printed alone on the last line; the old key keeps
                                    working for KEY_ROTATION_GRACE_HOURS (default 24) more hours
  keys revoke <key_id>              refuse the key from now on
  verifications list                pending helper verification requests, oldest first
  verifications approve <ver_id>    the helper is verified from now on; the account is told (event and email)
  verifications reject <ver_id> --reason TEXT
                                    reject the request; the reason is stored and emailed to the account
  helpers unverify <hlp_id> --reason TEXT
                                    revoke the helper's verification; the reason is stored and emailed
  accounts export <acc_id>          everything stored about the account as JSON on stdout (as GET /v1/me/export)
  accounts erase <acc_id>           erase the account (as DELETE /v1/me): commitments ended, names and texts
                                    erased, keys revoked; prints what was done and what is kept
  reports list                      received reports (DSA notices), oldest first
  reports decide <rpt_id> --action remove|restrict_visibility|suspend_account|no_action
                 --ground legal|terms --explanation TEXT
                                    decide: applied at once, a statement of reasons for the account
                                    (event), the outcome e-mailed to the reporter when they gave an address
  appeals list                      pending appeals, oldest first
  appeals decide <apl_id> --uphold|--reverse --explanation TEXT
                                    a reversal restores the item (or the account) at once
  clients list                      OAuth clients: id, name, the developer (or self-registered), ceiling
  clients limit <client_id> --per-minute N
                                    an app's ceiling in requests per minute across all its people
                                    (default OAUTH_CLIENT_LIMIT_PER_MIN)
  claims list                       disputed damage claims (waiting for a decision), then open ones, oldest first
  claims decide <clm_id> --amount-eur N --explanation TEXT
                                    decide a disputed claim: what the owner keeps of the deposit (0 up to the
                                    claim); both sides are told (event and e-mail)
  ledger check                      every ledger transaction sums to zero and every payment is booked as its
                                    state says; exits 1 and lists what does not
  ledger fees                       fees commercial providers owe the platform (manual provider), per account
  ledger report --year 2026         per seller: payments received in that year (Europe/Berlin), the
                                    consideration per quarter and in all, and fees (DAC7, PStTG)
  operators add <email> --role support|moderator|admin [--reason TEXT]
                                    give a signed-up account an operator's role (or change it); audited
  operators remove <email> [--reason TEXT]
                                    take the role away (never the last admin); audited
  operators list                    who runs the platform, admins first
  audit export [--from 2026-11-01] [--to 2026-12-01]
                                    the audit log (every operator action) as CSV; it cannot be changed
  ledger reconcile [--year 2026]    the books against Stripe (PAYMENTS_PROVIDER=stripe): each payment's
                                    capture, the year's fees in Stripe's balance, failed Stripe calls

Email goes through SMTP_URL (smtp://user:pass@host:port); without it each message is written as an
.eml file into OUTBOX_DIR (default ./data/outbox): a key's file holds the live key, delete it once sent.
Links in emails use PUBLIC_URL, else http://HOST:PORT.`;

interface Command {
  /** The prefix of the id the command takes, or null for none. */
  id: 'kr_' | 'key_' | 'ver_' | 'hlp_' | 'acc_' | 'rpt_' | 'apl_' | 'clm_' | 'any' | null;
  options: readonly OptionName[];
  run(ctx: AdminContext, id: string, options: AdminOptions): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  'requests list': { id: null, options: [], run: listRequests },
  'requests approve': { id: 'kr_', options: [], run: approve },
  'requests reject': { id: 'kr_', options: ['reason'], run: (ctx, id, o) => reject(ctx, id, o.reason) },
  'keys list': { id: null, options: [], run: listKeysTable },
  'keys create': { id: null, options: ['email', 'name', 'organisation', 'commercial'], run: createKey },
  'keys rotate': { id: 'key_', options: [], run: rotate },
  'keys revoke': { id: 'key_', options: [], run: revoke },
  'verifications list': { id: null, options: [], run: listVerifications },
  'verifications approve': { id: 'ver_', options: [], run: approveVerification },
  'verifications reject': {
    id: 'ver_',
    options: ['reason'],
    run: (ctx, id, o) => rejectVerification(ctx, id, o.reason),
  },
  'helpers unverify': { id: 'hlp_', options: ['reason'], run: (ctx, id, o) => unverify(ctx, id, o.reason) },
  'accounts export': { id: 'acc_', options: [], run: exportAccountCommand },
  'accounts erase': { id: 'acc_', options: [], run: eraseAccountCommand },
  'reports list': { id: null, options: [], run: listReports },
  'reports decide': { id: 'rpt_', options: ['action', 'ground', 'explanation'], run: decideReportCommand },
  'appeals list': { id: null, options: [], run: listAppeals },
  'appeals decide': { id: 'apl_', options: ['uphold', 'reverse', 'explanation'], run: decideAppealCommand },
  // An OAuth client's id is the library's or ours (cli_...): any id.
  'clients list': { id: null, options: [], run: listClientsTable },
  'clients limit': { id: 'any', options: ['per-minute'], run: limitClient },
  'claims list': { id: null, options: [], run: listClaims },
  'claims decide': { id: 'clm_', options: ['amount-eur', 'explanation'], run: decideClaimCommand },
  'ledger check': { id: null, options: [], run: checkLedgerCommand },
  'ledger fees': { id: null, options: [], run: listFeesOwed },
  'ledger report': { id: null, options: ['year'], run: ledgerReport },
  'ledger reconcile': { id: null, options: ['year'], run: reconcileLedgerCommand },
  'operators add': { id: 'any', options: ['role', 'reason'], run: addOperatorCommand },
  'operators remove': { id: 'any', options: ['reason'], run: removeOperatorCommand },
  'operators list': { id: null, options: [], run: listOperatorsCommand },
  'audit export': { id: null, options: ['from', 'to'], run: exportAuditCommand },
};

/** The command and its arguments, checked before anything is opened. */
function parseCommand(args: string[]): { name: string; command: Command; id: string; options: AdminOptions } | null {
  const { values, positionals } = parseArgs({ args, options: ADMIN_OPTIONS, allowPositionals: true, strict: true });
  if (values.help || positionals[0] === 'help') return null;
  if (positionals.length < 2) throw new Error('Name a command, such as `requests list` or `keys list`.');
  const name = `${positionals[0]} ${positionals[1]}`;
  const command = COMMANDS[name];
  if (!command) throw new Error(`Unknown command '${name}'.`);
  const rest = positionals.slice(2);
  const id = rest[0] ?? '';
  if (command.id === null && rest.length > 0) throw new Error(`${name} takes no arguments; got '${rest.join(' ')}'.`);
  if (command.id !== null) {
    if (!id) throw new Error(`${name} needs an id${command.id === 'any' ? '' : ` (${command.id}...)`}.`);
    if (rest.length > 1) throw new Error(`${name} takes one id; got '${rest.join(' ')}'.`);
    if (command.id !== 'any' && !id.startsWith(command.id)) throw new Error(`'${id}' is not a ${command.id}... id.`);
  }
  const { help: _, ...options } = values;
  const stray = Object.keys(options).filter((option) => !command.options.includes(option as OptionName));
  if (stray.length > 0) throw new Error(`${name} does not take ${stray.map((o) => `--${o}`).join(', ')}.`);
  return { name, command, id, options };
}

async function main(): Promise<void> {
  const parsed = parseCommand(process.argv.slice(2));
  if (!parsed) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const db = await openDatabase(config.DATABASE_URL);
  const mailer = createMailer(config);
  try {
    await parsed.command.run(
      {
        db: db.kysely,
        config,
        mailer,
        payments:
          config.PAYMENTS_PROVIDER === 'stripe' && config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
            ? stripeProvider({
                secretKey: config.STRIPE_SECRET_KEY,
                webhookSecret: config.STRIPE_WEBHOOK_SECRET,
                apiUrl: config.STRIPE_API_URL,
              })
            : null,
        now: new Date(),
        out: (line) => process.stdout.write(`${line}\n`),
        ...stdoutWriter,
        note: (line) => process.stderr.write(`${line}\n`),
      },
      parsed.id,
      parsed.options,
    );
  } finally {
    mailer.close();
    await db.close();
  }
}

// `keys list | head` closes the pipe early: that is a reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
  process.exit(1);
});

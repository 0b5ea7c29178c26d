/**
 * keyout — the command line for self-hosters and automation.
 *
 *   keyout keys create --email <email> --credits <n>   create account if needed, grant, print key
 *   keyout credits grant --email <email> --credits <n>
 *   keyout users reset-link --email <email>            print a one-time password-reset link
 *   keyout remove <input> -o <output> [--model …] [--format …] [--color …] [--background …] [--blur
 *   …]
 *
 * Each command lives in lib/cli/; this file only dispatches. Failures print one clear line to
 * stderr and exit non-zero.
 */
const USAGE = `Usage:
  keyout keys create --email <email> --credits <n>
  keyout credits grant --email <email> --credits <n>
  keyout users reset-link --email <email>
  keyout remove <input> -o <output> [--model <name>] [--format <format>] [--color '#RRGGBB']
                [--background <image or video path/URL>] [--blur background|subject]`;

async function main(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  if (group === 'keys' && action === 'create')
    return (await import('../lib/cli/accounts')).keysCreate(rest);
  if (group === 'credits' && action === 'grant')
    return (await import('../lib/cli/accounts')).creditsGrant(rest);
  if (group === 'users' && action === 'reset-link')
    return (await import('../lib/cli/accounts')).usersResetLink(rest);
  if (group === 'remove') return (await import('../lib/cli/remove')).remove(argv.slice(1));
  if (group === '--help' || group === '-h' || group === 'help') {
    console.log(USAGE);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`keyout: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);

import { parseArgs } from 'node:util';
import { loadConfig, signDevToken } from '@cropcover/runtime';

// Prints a signed dev token for the configured HS256 secret:
//   npm run token -- --sub u1 --org org1 --roles insurer,auditor [--expires-in 8h]

const usage =
  'usage: token --sub <subject> [--org <org_id>] [--roles r1,r2] [--given-name N] [--family-name N] [--phone-number P] [--expires-in 1h]';

const main = async (): Promise<void> => {
  const { values } = parseArgs({
    options: {
      sub: { type: 'string' },
      org: { type: 'string' },
      roles: { type: 'string' },
      'given-name': { type: 'string' },
      'family-name': { type: 'string' },
      'phone-number': { type: 'string' },
      'expires-in': { type: 'string' },
    },
  });
  if (!values.sub) throw new Error(usage);
  const { auth } = loadConfig();
  if (!auth.jwtSecret) throw new Error('AUTH_JWKS_URL is set: tokens come from the identity provider, not from here');
  const token = await signDevToken(
    {
      sub: values.sub,
      org: values.org,
      roles: values.roles
        ? values.roles
            .split(',')
            .map((role) => role.trim())
            .filter(Boolean)
        : [],
      givenName: values['given-name'],
      familyName: values['family-name'],
      phoneNumber: values['phone-number'],
      expiresIn: values['expires-in'] ?? '12h',
      issuer: auth.issuer,
      audience: auth.audience,
    },
    auth.jwtSecret,
  );
  process.stdout.write(`${token}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});

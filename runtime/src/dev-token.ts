import { SignJWT } from 'jose';

export interface DevTokenClaims {
  readonly sub: string;
  readonly org?: string;
  readonly roles?: readonly string[];
  readonly givenName?: string;
  readonly familyName?: string;
  readonly phoneNumber?: string;
  /** A jose time span (`'1h'`, `'30m'`) or seconds from now; negative makes an already expired token. */
  readonly expiresIn?: string | number;
  readonly issuer?: string;
  readonly audience?: string;
}

/** Signs an HS256 token with the claims the authenticator reads; for local use and tests. */
export const signDevToken = async (claims: DevTokenClaims, secret: string): Promise<string> => {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const expiresIn = claims.expiresIn ?? '1h';
  let jwt = new SignJWT({
    ...(claims.org === undefined ? {} : { org_id: claims.org }),
    roles: [...(claims.roles ?? [])],
    ...(claims.givenName === undefined ? {} : { given_name: claims.givenName }),
    ...(claims.familyName === undefined ? {} : { family_name: claims.familyName }),
    ...(claims.phoneNumber === undefined ? {} : { phone_number: claims.phoneNumber }),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(typeof expiresIn === 'number' ? nowSeconds + expiresIn : expiresIn);
  if (claims.issuer) jwt = jwt.setIssuer(claims.issuer);
  if (claims.audience) jwt = jwt.setAudience(claims.audience);
  return jwt.sign(new TextEncoder().encode(secret));
};

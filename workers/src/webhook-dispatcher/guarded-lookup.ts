import { type LookupAddress, type LookupAllOptions, lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from '@cropcover/contracts';

/** A DNS lookup for outgoing webhook connections that refuses non-public addresses (unless insecure
 *  targets are allowed). Checked on what the name resolves to at connect time, so a name that pointed to a
 *  public address when subscribed cannot be rebound to the service's own network later. */
export const guardedLookup =
  (allowInsecure: boolean): LookupFunction =>
  (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true } satisfies LookupAllOptions, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const refused = allowInsecure ? undefined : addresses.find(({ address }) => !isPublicAddress(address));
      if (refused) {
        callback(
          Object.assign(new Error(`${hostname} resolves to the non-public address ${refused.address}`), {
            code: 'EADDRNOTPUBLIC',
          }),
          '',
          0,
        );
        return;
      }
      if (options.all) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
        return;
      }
      const [first] = addresses;
      if (!first) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      else callback(null, first.address, first.family);
    });
  };

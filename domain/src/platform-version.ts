import domainPackage from '../package.json';

/** The semantic version of the pricing and trigger rules: this package's version, stamped on every
 *  event, quote and policy so an auditor knows which rules produced them. */
export const PLATFORM_VERSION: string = domainPackage.version;

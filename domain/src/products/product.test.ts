import type { ProductEvent, TermSheet } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { DEFAULT_PRODUCT } from '../insurance/term-sheet/builtin';
import { sheetDigest } from '../insurance/term-sheet/sheet-digest';
import { deciderSpec } from '../testing/decider-spec';
import { KHARIF_DEFICIT_SHEET, RAIN_DAYS_SHEET } from '../testing/example-sheets';
import { insurer } from '../testing/insured-farm';
import {
  DEFAULT_PRODUCT_VERSION,
  evolveProduct,
  initialProduct,
  type Product,
  productStreamId,
  productToSell,
  productVersionView,
  versionToSell,
} from './product';
import { type RegisterProductVersion, registerProduct, registerProductVersion } from './register-product-version';
import { type RetireProductVersion, retireProductVersion } from './retire-product-version';

// TERM-SHEETS.md §2.1: immutable versions named by their sheet's digest, per organization; `default`
// built in.

const now = new Date('2026-05-01T09:00:00.000Z');
const command = (sheet: TermSheet, overrides: Partial<RegisterProductVersion> = {}): RegisterProductVersion => ({
  actor: insurer,
  productId: 'kharif-deficit',
  sheet,
  now,
  ...overrides,
});
const registeredEvent = (version: number, sheet: TermSheet, at = now): ProductEvent => ({
  type: 'ProductVersionRegistered',
  data: {
    organization_id: 'org-1',
    product_id: 'kharif-deficit',
    version,
    sheet,
    digest: sheetDigest(sheet),
    registered_at: at.toISOString(),
  },
});
const stateAfter = (events: readonly ProductEvent[]): Product => events.reduce(evolveProduct, initialProduct);
/** Example B's sheet with its name changed: other terms, another digest. */
const renamed: TermSheet = { ...KHARIF_DEFICIT_SHEET, name: 'Kharif deficit rainfall, 2027 wording' };

describe('registering a product', () => {
  const spec = deciderSpec(initialProduct, evolveProduct, registerProduct);

  it('registers version 1 with the digest of its sheet, in the organization’s stream', () => {
    spec
      .given([])
      .when(command(KHARIF_DEFICIT_SHEET))
      .thenEvents([registeredEvent(1, KHARIF_DEFICIT_SHEET)]);
    expect(productStreamId('org-1', 'kharif-deficit')).toBe('product-org-1.kharif-deficit');
  });

  it('names a sheet by its canonical JSON: the same terms laid out otherwise have the same digest', () => {
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, member]) => [key, reversed(member)]),
            )
          : value;
    const reordered = reversed(KHARIF_DEFICIT_SHEET) as TermSheet;
    expect(Object.keys(reordered)[0]).not.toBe(Object.keys(KHARIF_DEFICIT_SHEET)[0]);
    expect(sheetDigest(reordered)).toBe(sheetDigest(KHARIF_DEFICIT_SHEET));
    expect(sheetDigest(renamed)).not.toBe(sheetDigest(KHARIF_DEFICIT_SHEET));
    expect(sheetDigest(KHARIF_DEFICIT_SHEET)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('refuses an id the organization has (409 product_exists), and `default` always', () => {
    spec
      .given([registeredEvent(1, KHARIF_DEFICIT_SHEET)])
      .when(command(renamed))
      .thenRefuses('conflict', 'product_exists');
    spec
      .given([])
      .when(command(RAIN_DAYS_SHEET, { productId: 'default' }))
      .thenRefuses('conflict', 'product_exists');
  });

  it('refuses a sheet breaking a rule with one detail per rule broken, and records nothing', () => {
    const [drought] = KHARIF_DEFICIT_SHEET.covers;
    const broken: TermSheet = {
      ...KHARIF_DEFICIT_SHEET,
      covers: [{ ...drought!, phases: drought!.phases.map((phase) => ({ ...phase, settle: 'any_time' as const })) }],
    };
    let refusal: unknown;
    try {
      registerProduct(command(broken), initialProduct);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ reason: 'rejected', code: 'invalid_term_sheet' });
    expect((refusal as DomainError).errors?.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: 'covers.0.phases.0.settle', code: 'premature_settlement' },
      { path: 'covers.0.phases.1.settle', code: 'premature_settlement' },
      { path: 'covers.0.phases.2.settle', code: 'premature_settlement' },
    ]);
  });

  it('needs an organization', () => {
    const orphan: Actor = { subject: 'someone', organizationId: null, isAdmin: false };
    spec
      .given([])
      .when(command(KHARIF_DEFICIT_SHEET, { actor: orphan }))
      .thenRefuses('forbidden', 'organization_required');
  });
});

describe('registering a product’s next version', () => {
  const spec = deciderSpec(initialProduct, evolveProduct, registerProductVersion);
  const later = new Date('2026-06-01T09:00:00.000Z');

  it('registers the next version of other terms', () => {
    spec
      .given([registeredEvent(1, KHARIF_DEFICIT_SHEET)])
      .when(command(renamed, { now: later }))
      .thenEvents([registeredEvent(2, renamed, later)]);
  });

  it('registers nothing for a sheet identical to the latest version: that version is the answer', () => {
    spec
      .given([registeredEvent(1, KHARIF_DEFICIT_SHEET)])
      .when(command(KHARIF_DEFICIT_SHEET))
      .thenEvents([]);
    // Identical to an older version but not the latest: new terms again.
    spec
      .given([registeredEvent(1, KHARIF_DEFICIT_SHEET), registeredEvent(2, renamed)])
      .when(command(KHARIF_DEFICIT_SHEET, { now: later }))
      .thenEvents([registeredEvent(3, KHARIF_DEFICIT_SHEET, later)]);
  });

  it('refuses a version of the built-in `default` (409), as its retirement', () => {
    spec
      .given([])
      .when(command(RAIN_DAYS_SHEET, { productId: 'default' }))
      .thenRefuses('conflict', 'product_exists');
    deciderSpec(initialProduct, evolveProduct, retireProductVersion)
      .given([])
      .when({ actor: insurer, productId: 'default', version: 1, now })
      .thenRefuses('conflict', 'product_exists');
  });

  it('refuses a stale If-Match (412) and an unknown product (404)', () => {
    spec
      .given([registeredEvent(1, KHARIF_DEFICIT_SHEET), registeredEvent(2, renamed)])
      .when(command(RAIN_DAYS_SHEET, { expectedVersion: 1 }))
      .thenRefuses('precondition_failed', 'precondition_failed');
    spec.given([]).when(command(RAIN_DAYS_SHEET)).thenRefuses('not_found', 'product_not_found');
  });
});

describe('retiring a version', () => {
  const spec = deciderSpec(initialProduct, evolveProduct, retireProductVersion);
  const retire: RetireProductVersion = { actor: insurer, productId: 'kharif-deficit', version: 1, now };
  const retired: ProductEvent = {
    type: 'ProductVersionRetired',
    data: { organization_id: 'org-1', product_id: 'kharif-deficit', version: 1, retired_at: now.toISOString() },
  };

  it('retires it once; it is no longer sold, the next active one is', () => {
    spec
      .given([registeredEvent(1, KHARIF_DEFICIT_SHEET)])
      .when(retire)
      .thenEvents([retired]);
    spec
      .given([registeredEvent(1, KHARIF_DEFICIT_SHEET), retired])
      .when(retire)
      .thenEvents([]);
    spec
      .given([registeredEvent(1, KHARIF_DEFICIT_SHEET)])
      .when({ ...retire, version: 2 })
      .thenRefuses('not_found', 'product_not_found');
    const state = stateAfter([registeredEvent(1, KHARIF_DEFICIT_SHEET), registeredEvent(2, renamed), retired]);
    expect(versionToSell(state, 'kharif-deficit', undefined)).toMatchObject({ version: 2, status: 'active' });
    expect(() => versionToSell(state, 'kharif-deficit', 1)).toThrow(
      expect.objectContaining({ code: 'product_retired' }),
    );
    expect(() => versionToSell(initialProduct, 'kharif-deficit', 1)).toThrow(
      expect.objectContaining({ code: 'product_not_found' }),
    );
  });

  it('shows each version as immutable: sheet, digest, status, when', () => {
    const state = stateAfter([registeredEvent(1, KHARIF_DEFICIT_SHEET), retired]);
    if (state.status !== 'registered') throw new Error('not registered');
    expect(productVersionView('kharif-deficit', state.versions[0]!)).toEqual({
      product_id: 'kharif-deficit',
      version: 1,
      digest: sheetDigest(KHARIF_DEFICIT_SHEET),
      status: 'retired',
      sheet: KHARIF_DEFICIT_SHEET,
      registered_at: now.toISOString(),
    });
    expect(DEFAULT_PRODUCT_VERSION).toMatchObject({ product_id: 'default', version: 1, status: 'active' });
  });
});

describe('the product quote and issue sell (TERM-SHEETS.md §2.3)', () => {
  const state = stateAfter([registeredEvent(1, KHARIF_DEFICIT_SHEET), registeredEvent(2, renamed)]);
  const v1 = { product_id: 'kharif-deficit', version: 1, digest: sheetDigest(KHARIF_DEFICIT_SHEET) };

  it('is `default` when none is named, or `default` is named at its one version', () => {
    expect(productToSell(initialProduct, undefined)).toBe(DEFAULT_PRODUCT);
    expect(productToSell(initialProduct, { product_id: 'default', version: 1 })).toBe(DEFAULT_PRODUCT);
    expect(() => productToSell(initialProduct, { product_id: 'default', version: 2 })).toThrow(
      expect.objectContaining({ code: 'product_not_found' }),
    );
  });

  it('is the version named, else the latest active one, with the sheet the policy freezes', () => {
    expect(productToSell(state, { product_id: 'kharif-deficit', version: 1 })).toEqual({
      ref: v1,
      sheet: KHARIF_DEFICIT_SHEET,
    });
    expect(productToSell(state, { product_id: 'kharif-deficit' }).ref).toMatchObject({ version: 2 });
  });

  it('takes the quote’s product back as it was echoed, and refuses a digest the version does not have', () => {
    expect(productToSell(state, v1).ref).toEqual(v1);
    expect(() => productToSell(state, { ...v1, version: 2 })).toThrow(
      expect.objectContaining({ code: 'product_not_found' }),
    );
    expect(() => productToSell(initialProduct, { ...v1, product_id: 'default' })).toThrow(
      expect.objectContaining({ code: 'product_not_found' }),
    );
  });
});

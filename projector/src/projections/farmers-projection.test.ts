import { farmerStream, farmStream, shareableIdStream } from '@cropcover/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { farmerProfileUpdated, farmerRegistered, farmRegistered, shareableIdClaimed } from '../testing/registry-events';
import { waitUntilVisible } from '../testing/visible-log';
import { farmersProjection } from './farmers-projection';

describe('farmers projection', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_farmers');
    await t.eventStore.append(
      shareableIdStream('PF-F1'),
      [shareableIdClaimed({ code: 'PF-F1', claimed_by: 'f1' })],
      'no_stream',
    );
    await t.eventStore.append(
      farmerStream('f1'),
      [
        farmerRegistered('f1', '2026-03-01T10:00:00.000Z', { whatsapp_number: '+254700000001' }),
        farmerProfileUpdated({
          farmer_id: 'f1',
          changes: { first_name: 'Achieng', whatsapp_number: null, data_consent_given: true },
          onboarding_status: 'completed',
          updated_at: '2026-03-02T10:00:00.000Z',
        }),
      ],
      'no_stream',
    );
    await t.eventStore.append(
      farmerStream('f2'),
      [farmerRegistered('f2', '2026-03-03T10:00:00.000Z', { source: 'token_claims', first_name: '', last_name: '' })],
      'no_stream',
    );
    const last = await t.eventStore.append(
      farmStream('farm1'),
      [farmRegistered('farm1', 'f1', '2026-03-04T10:00:00.000Z')],
      'no_stream',
    );
    await waitUntilVisible(t.eventStore, last.position);
  });
  afterAll(() => t?.close());

  const project = async () => applyBatch(t.db, farmersProjection, await t.eventStore.readAll('start', 100));
  const rows = () => t.db.selectFrom('farmers').selectAll().orderBy('farmer_id').execute();

  it('registers farmers and applies profile changes, clearing with null and keeping what was omitted', async () => {
    await project();
    expect(await rows()).toEqual([
      {
        farmer_id: 'f1',
        subject: 'subject-f1',
        platform_farmer_id: 'PF-F1',
        first_name: 'Achieng',
        last_name: 'Kamau',
        phone_number: '+254712345678',
        language: 'sw',
        upload_channel: 'app',
        whatsapp_number: null,
        onboarding_status: 'completed',
        data_consent_given: true,
        is_active: true,
        created_at: new Date('2026-03-01T10:00:00.000Z'),
        updated_at: new Date('2026-03-02T10:00:00.000Z'),
        stream_revision: 1,
      },
      {
        farmer_id: 'f2',
        subject: 'subject-f2',
        platform_farmer_id: 'PF-F2',
        first_name: '',
        last_name: '',
        phone_number: '+254712345678',
        language: 'sw',
        upload_channel: 'app',
        whatsapp_number: null,
        onboarding_status: 'pending',
        data_consent_given: false,
        is_active: true,
        created_at: new Date('2026-03-03T10:00:00.000Z'),
        updated_at: new Date('2026-03-03T10:00:00.000Z'),
        stream_revision: 0,
      },
    ]);
  });

  it('gives the same rows when every event comes in a batch of its own', async () => {
    const together = await rows();
    await t.db.deleteFrom('farmers').execute();
    for (const event of await t.eventStore.readAll('start', 100)) await applyBatch(t.db, farmersProjection, [event]);
    expect(await rows()).toEqual(together);
  });

  it('writes a batch with more farmers than one statement can carry', async () => {
    // 15 columns a row: past PostgreSQL's 65,535 bind parameters per statement, and several chunks.
    const many = Array.from({ length: 4400 }, (_, i) => ({
      ...farmerRegistered(`bulk-${i}`, '2026-03-06T10:00:00.000Z'),
      streamId: farmerStream(`bulk-${i}`),
      revision: 0,
      position: { commit: 1n, prepare: BigInt(i) },
    }));
    await t.db.transaction().execute((trx) => farmersProjection.apply(trx, many));
    const { count } = await t.db
      .selectFrom('farmers')
      .select((eb) => eb.fn.countAll<bigint>().as('count'))
      .where('farmer_id', 'like', 'bulk-%')
      .executeTakeFirstOrThrow();
    expect(count).toBe(BigInt(many.length));
    await t.db.deleteFrom('farmers').where('farmer_id', 'like', 'bulk-%').execute();
  });

  it('leaves the rows as they are when the same events are applied again', async () => {
    const before = await rows();
    await project();
    await project();
    expect(await rows()).toEqual(before);
  });

  it('does not undo a later change when an earlier event comes again', async () => {
    const [registered] = await t.eventStore.readStream(farmerStream('f1'));
    await t.eventStore.append(
      farmerStream('f1'),
      [
        farmerProfileUpdated({
          farmer_id: 'f1',
          changes: { last_name: 'Otieno' },
          onboarding_status: 'completed',
          updated_at: '2026-03-05T10:00:00.000Z',
        }),
      ],
      1,
    );
    const [, firstUpdate, secondUpdate] = await t.eventStore.readStream(farmerStream('f1'));
    await applyBatch(t.db, farmersProjection, [secondUpdate!, registered!, firstUpdate!]);
    const f1 = await t.db.selectFrom('farmers').selectAll().where('farmer_id', '=', 'f1').executeTakeFirstOrThrow();
    expect(f1).toMatchObject({ first_name: 'Achieng', last_name: 'Otieno', stream_revision: 2 });
    expect(f1.updated_at).toEqual(new Date('2026-03-05T10:00:00.000Z'));
  });
});

import { actorOf, ingestIndexFile, sourceForFiles, storeIndexFile, unitAreasOfSource } from '@cropcover/application';
import {
  INDEX_FILE_MAX_BYTES,
  INDEX_FILE_MEDIA_TYPES,
  IndexFileIngestion,
  type IndexFileMediaType,
  IndexFileQuery,
  IndexSourcePathParams,
} from '@cropcover/contracts';
import { ProblemError } from '@cropcover/runtime';
import { commandRoute } from '../../../../command-route';

const mediaTypeOf = (contentType: string | undefined): IndexFileMediaType | undefined => {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return INDEX_FILE_MEDIA_TYPES.find((known) => known === type);
};

const refuseAnnouncedOversize = (contentLength: string | undefined): void => {
  if (Number(contentLength ?? 0) > INDEX_FILE_MAX_BYTES)
    throw ProblemError.payloadTooLarge(`An index file may have at most ${INDEX_FILE_MAX_BYTES / 1024 ** 2} MiB.`, {
      Connection: 'close',
    });
};

/** INDEX-DATA.md §2.1: a producer's file (GeoTIFF, NetCDF, CSV) ingested into the source as it is. */
export const ingestIndexFileRoute = commandRoute('POST /insurance/index-sources/{source_id}/files', {
  summary: 'Ingest a GeoTIFF, NetCDF or CSV file of readings into the source (its data providers)',
  description:
    'The body is the file (`Content-Encoding: gzip` accepted), up to 1 GiB, streamed to disk and kept by its ' +
    'SHA-256. GeoTIFF: one band per period, dated by `date` (one band) or `dates` (one per band); NetCDF: ' +
    '`variable`, CF time and lat/lon; CSV: `location,date,value` or `date,<location>,…`. Fill values, nodata ' +
    'and −9999/−999.9 are missing, never 0. Any value out of bounds refuses the whole file. The same bytes ' +
    'again answer the first ingestion (200); changed values become revisions labelled `label`. Files larger ' +
    'than the deployment’s job size are ingested as a job: follow Location.',
  roles: ['data_provider'],
  request: { params: IndexSourcePathParams, query: IndexFileQuery, file: { mediaTypes: INDEX_FILE_MEDIA_TYPES } },
  success: {
    status: 202,
    schema: IndexFileIngestion,
    description: 'Ingested (status succeeded) or, for a large file, queued; Location names the ingestion',
    unchanged: { status: 200, description: 'These bytes were ingested into the source before: that ingestion' },
  },
  problems: {
    403: { description: "not_source_owner: another organization's source", codes: ['not_source_owner'] },
    404: { description: 'No such source', codes: ['not_found'] },
    422: {
      description:
        'reading_out_of_bounds, grid_mismatch, unknown_variable, unreadable_file, unknown_location, reading_in_future',
      codes: [
        'reading_out_of_bounds',
        'grid_mismatch',
        'unknown_variable',
        'unreadable_file',
        'unknown_location',
        'reading_in_future',
      ],
    },
    503: {
      description:
        'storage_full: the disk index files are kept on is full (SPEC §10); nothing was kept; see Retry-After',
      codes: ['storage_full'],
    },
  },
}).handle(async ({ deps, params: { source_id }, query, principal, organizationId, answerUnchanged, req, res }) => {
  // The size first, from the header alone: it closes the connection, so a client announcing too much is
  // not held until the request timeout whatever else is wrong with its request.
  refuseAnnouncedOversize(req.get('content-length'));
  const mediaType = mediaTypeOf(req.get('content-type'));
  if (mediaType === undefined)
    throw ProblemError.unsupportedMediaType(`An index file is sent as ${INDEX_FILE_MEDIA_TYPES.join(', ')}.`);
  const encoding = req.get('content-encoding')?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== 'identity' && encoding !== 'gzip')
    throw ProblemError.unsupportedMediaType('An index file is sent as it is or gzip-encoded.');
  const now = deps.clock.now();
  const source = await sourceForFiles(deps.eventStore, { ...actorOf(principal), organizationId }, source_id);
  const file = await storeIndexFile(req, deps.indexFiles.directory, {
    gzip: encoding === 'gzip',
    limitBytes: INDEX_FILE_MAX_BYTES,
  });
  const outcome = await ingestIndexFile(
    deps.db,
    {
      source,
      units: await unitAreasOfSource(deps.eventStore, source_id),
      file,
      mediaType,
      dates: query.dates ?? (query.date === undefined ? undefined : [query.date]),
      variable: query.variable,
      label: query.label,
      requestedBy: principal.sub,
      now,
    },
    { asJob: file.bytes > deps.indexFiles.jobBytes, logger: deps.logger },
  );
  if (outcome.unchanged) answerUnchanged();
  res.location(`/insurance/index-sources/${source_id}/files/${outcome.ingestion.ingestion_id}`);
  return outcome.ingestion;
});

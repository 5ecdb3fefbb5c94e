import { inflateSync } from 'node:zlib';
import { ProblemError } from '@cropcover/runtime';
import { addDecoder, BaseDecoder, fromFile } from 'geotiff';
import { type GridRaster, missingValueTest } from './grid-raster';

// GeoTIFF through geotiff.js (striped, tiled and Cloud-Optimized; deflate, LZW or none): a window read
// decodes only the strips or tiles it touches.

/** Deflate through Node's zlib rather than geotiff.js's pako: a CHIRPS-Africa day decodes with a third
 *  less CPU (docs/benchmarks.md, "Index files"). */
class ZlibInflate extends BaseDecoder {
  override decodeBlock(buffer: ArrayBufferLike): ArrayBufferLike {
    const inflated = inflateSync(new Uint8Array(buffer));
    return inflated.buffer.slice(inflated.byteOffset, inflated.byteOffset + inflated.byteLength);
  }
}
/** TIFF compression codes 8 (Adobe deflate) and 32946 (the older deflate code). */
addDecoder([8, 32946], async () => ZlibInflate, undefined, false);

/** GeoKey ModelTypeGeoKey 2: geographic (lat/lon degrees); 1 is projected, which no source grid is. */
const MODEL_TYPE_GEOGRAPHIC = 2;

export const openGeoTiff = async (path: string): Promise<GridRaster> => {
  const tiff = await fromFile(path);
  // The first image is the full resolution; a COG's overviews follow it.
  const image = await tiff.getImage(0);
  const [west = 0, north = 0] = image.getOrigin();
  const [cellWidth = 0, cellHeight = 0] = image.getResolution();
  const modelType = image.getGeoKeys()?.GTModelTypeGeoKey;
  if (modelType !== undefined && modelType !== MODEL_TYPE_GEOGRAPHIC)
    throw ProblemError.unprocessable(
      'grid_mismatch',
      'The GeoTIFF is in a projected coordinate system; a source grid is in lat/lon degrees (EPSG:4326).',
    );
  return {
    grid: {
      west,
      north,
      cellWidth,
      cellHeight: Math.abs(cellHeight),
      columns: image.getWidth(),
      rows: image.getHeight(),
    },
    slices: image.getSamplesPerPixel(),
    sliceDates: undefined,
    isMissing: missingValueTest([image.getGDALNoData() ?? undefined]),
    readSlice: async (slice, window) => {
      const [values] = await image.readRasters({
        window: [window.column, window.row, window.column + window.columns, window.row + window.rows],
        samples: [slice],
        interleave: false,
      });
      return values as ArrayLike<number>;
    },
    close: async () => {
      await tiff.close();
    },
  };
};

/**
 * Vite build plugin: after the bundle is written, store a brotli (.br) and a gzip (.gz) copy next
 * to every text asset, so the Flask side can serve them pre-compressed (no compression per request).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const PRECOMPRESSED_EXTENSIONS = [".js", ".css", ".svg", ".json"];

export async function precompressFile(path: string): Promise<void> {
  const data = await readFile(path);
  const [br, gzipped] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz(data, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gzipped)]);
}

export default function precompress(extensions: string[] = PRECOMPRESSED_EXTENSIONS): Plugin {
  let outDir = "";
  return {
    name: "sibol:precompress",
    apply: "build",
    // Last, so the files on disk are the final ones (the manifest included: Vite emits it as an asset).
    enforce: "post",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(options, bundle) {
      const dir = options.dir ?? outDir;
      const files = Object.keys(bundle).filter((file) => extensions.some((ext) => file.endsWith(ext)));
      await Promise.all(files.map((file) => precompressFile(join(dir, file))));
    },
  };
}

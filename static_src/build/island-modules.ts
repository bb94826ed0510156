/**
 * Vite build plugin: writes island-modules.json next to the manifest, mapping each island entry
 * (its manifest key, e.g. "static_src/islands/login.ts") to the static_src files it loads, statically
 * or on demand. sibol/web/island_messages.py joins it with the locations in islands.po to embed, per page,
 * only the translations its islands can show.
 */
import { relative, sep } from "node:path";
import type { Plugin } from "vite";

export const MODULES_FILE = "island-modules.json";

export default function islandModules(): Plugin {
  let root = process.cwd();
  return {
    name: "sibol-island-modules",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const toKey = (id: string) => relative(root, id).split(sep).join("/");
      const map: Record<string, string[]> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk" || !chunk.isEntry || !chunk.facadeModuleId) continue;
        const seen = new Set<string>();
        const queue = [chunk.facadeModuleId];
        while (queue.length > 0) {
          const id = queue.pop() as string;
          if (seen.has(id)) continue;
          seen.add(id);
          const info = this.getModuleInfo(id);
          if (info) queue.push(...info.importedIds, ...info.dynamicallyImportedIds);
        }
        map[toKey(chunk.facadeModuleId)] = Array.from(seen)
          .map(toKey)
          .filter((key) => key.startsWith("static_src/"))
          .sort();
      }
      this.emitFile({ type: "asset", fileName: MODULES_FILE, source: `${JSON.stringify(map, null, 1)}\n` });
    },
  };
}

/// <reference types="vitest/config" />
// Vite build for the SIBOL islands: one entry per file in static_src/islands/, written to
// sibol/static/dist/ with a manifest for sibol/assets.py (production) or a hot file (development).
import { mkdirSync, readdirSync } from "node:fs";
import react from "@vitejs/plugin-react";
import { defineConfig, type PluginOption, type Rollup } from "vite";
import backend from "vite-plugin-backend";
import { VitePWA } from "vite-plugin-pwa";
import islandModules from "./static_src/build/island-modules";
import precompress from "./static_src/build/precompress";

const ISLANDS_DIR = "static_src/islands";
const PUBLIC_DIR = "sibol/static";
const HOT_FILE = `${PUBLIC_DIR}/hot`;

/** Every island entry, as a path from the project root (the manifest key Flask looks up). */
function islandEntries(): string[] {
  const entries = readdirSync(ISLANDS_DIR)
    .filter((file) => /\.tsx?$/.test(file) && !/\.(test|spec|d)\.tsx?$/.test(file))
    .sort()
    .map((file) => `${ISLANDS_DIR}/${file}`);
  if (entries.length === 0) throw new Error(`No island entries found in ${ISLANDS_DIR}/`);
  return entries;
}

const REACT_MODULE = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

/** React, react-dom and scheduler in one chunk, so a page with several islands loads them once. */
const vendorChunk: Rollup.GetManualChunk = (id, { getModuleInfo }) => {
  if (REACT_MODULE.test(id)) return "react";
  // Rollup's CommonJS helpers would join the React chunk, and an island using another CommonJS
  // package would then load React for them: give them their own chunk when others need them.
  if (id.includes("commonjsHelpers")) {
    const importers = getModuleInfo(id)?.importers ?? [];
    return importers.every((importer) => REACT_MODULE.test(importer)) ? "react" : "commonjs";
  }
  return undefined;
};

/**
 * React's modules do nothing on import, but Rollup cannot tell (they are CommonJS). Saying so lets
 * a plain-TypeScript island that imports `onIsland` from lib/mount.ts load no React at all.
 */
function hasSideEffects(id: string): boolean {
  return !REACT_MODULE.test(id);
}

/**
 * The installable console: the web app manifest and the service worker (static_src/sw/sw.ts,
 * Workbox through vite-plugin-pwa), written to sibol/static/dist/ and served by Flask at /sw.js
 * and /manifest.webmanifest (scope /). The precache is the offline pages' shell: the islands'
 * code without React and the charts (pages that need those are online pages), the stylesheets
 * and the icon.
 */
function installableConsole(): PluginOption {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "static_src/sw",
    filename: "sw.ts",
    injectRegister: false,
    scope: "/",
    base: "/",
    manifestFilename: "manifest.webmanifest",
    manifest: {
      name: "SIBOL console",
      short_name: "SIBOL",
      description: "Collection day, household waste, maintenance and machines, also without signal",
      start_url: "/household/collection-day",
      scope: "/",
      display: "standalone",
      background_color: "#ffffff",
      theme_color: "#166534",
      icons: [{ src: "/static/favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
    },
    injectManifest: {
      globDirectory: PUBLIC_DIR,
      globPatterns: [
        "dist/assets/*.js",
        "css/app.css",
        "css/household.css",
        "css/maintenance.css",
        "css/machines.css",
      ],
      // jsQR reads QR codes on the redeem page only, an online page.
      globIgnores: [
        "dist/assets/react-*.js",
        "dist/assets/charts-*.js",
        "dist/assets/jsQR-*.js",
        "**/*.test.*",
      ],
      modifyURLPrefix: { "": "/static/" },
      maximumFileSizeToCacheInBytes: 200_000,
    },
  });
}

export default defineConfig(({ command }) => {
  const testing = Boolean(process.env.VITEST);
  const plugins: PluginOption[] = [react()];
  if (!testing) {
    // The dev server writes its URL to the hot file; make sure its folder exists.
    if (command === "serve") mkdirSync(PUBLIC_DIR, { recursive: true });
    plugins.push(
      backend({
        input: islandEntries(),
        publicDirectory: PUBLIC_DIR,
        buildDirectory: "dist",
        hotFile: HOT_FILE,
      }),
      islandModules(),
      precompress(),
      installableConsole(),
    );
  }

  return {
    // Built files are served by Flask under /static/dist/; the dev server serves from its root.
    base: command === "build" ? "/static/dist/" : undefined,
    plugins,
    build: {
      manifest: "manifest.json",
      outDir: `${PUBLIC_DIR}/dist`,
      emptyOutDir: true,
      target: "es2020",
      sourcemap: false,
      rollupOptions: {
        output: { manualChunks: vendorChunk },
        treeshake: { moduleSideEffects: hasSideEffects },
      },
    },
    server: {
      host: "127.0.0.1",
      port: 5173,
      strictPort: true,
    },
    test: {
      environment: "jsdom",
      include: ["static_src/**/*.test.{ts,tsx}"],
      setupFiles: ["static_src/test/setup.ts"],
      restoreMocks: true,
      unstubGlobals: true,
    },
  };
});

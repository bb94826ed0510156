// ESLint for the islands (static_src/) and the Vite config: the recommended JavaScript and
// TypeScript rules and React's rules of hooks. Formatting is Prettier's job (.prettierrc.json).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "sibol/static/", ".venv/"] },
  {
    files: ["static_src/**/*.{ts,tsx}", "vite.config.ts"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A leading underscore marks an argument kept for its position (event handlers, callbacks).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
);

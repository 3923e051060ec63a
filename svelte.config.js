// Shared by both Vite builds (electron.vite.config.ts, vite.web.config.ts), svelte-check and
// eslint-plugin-svelte. Svelte 5 compiles `<script lang="ts">` without a preprocessor.
/** @type {import('svelte/compiler').CompileOptions} */
const compilerOptions = { runes: true };

export default { compilerOptions };

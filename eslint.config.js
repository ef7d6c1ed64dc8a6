// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries of src/ (docs/ARCHITECTURE.md, "Dependency rule"; test/folder-graph.test.ts proves the same on
 * the import graph). A folder is entered only through its index.ts (protocol/ file by file until the protocol split);
 * domain folders — everything but http/, realtime/, app.ts, main.ts and server.ts — never import the transports or
 * the offline model; realtime/ never imports http/ (both import boundary/).
 */
const FOLDERS = ['analytics', 'auth', 'boundary', 'classroom', 'critic', 'exams', 'guard', 'http', 'jobs', 'judges', 'kernel', 'lecture', 'llm', 'lti', 'materials', 'math', 'math-problems', 'quality', 'quiz', 'realtime', 'retrieval', 'store', 'text'];
const COMPOSITION_FOLDERS = new Set(['boundary', 'http', 'realtime']);
/** The transports never import each other; what both need is in src/boundary/, which imports neither. */
const TRANSPORT_EDGES = {
  realtime: [{ regex: '^(\\.\\./)+http/', message: 'realtime/ never imports http/: what both need lives in src/boundary/.' }],
  boundary: [{ regex: '^(\\.\\./)+(http|realtime)/', message: 'boundary/ is below both transports: it imports neither.' }],
};
const TRANSPORTS = [
  { name: 'socket.io', message: 'Domain code takes a port; socket.io lives in src/realtime/.' },
  { name: 'express', message: 'Domain code takes typed input; express lives in src/http/.' },
];
const OFFLINE_MODEL = { regex: '(^|/)llm/offline-', message: 'Ask the model for capabilities; the offline model is chosen in app.ts.' };
/** A relative import of a file of one of `folders` other than its index (from src/, a folder or a subfolder). */
const deepImport = (folders) => ({
  regex: `^(\\.\\./)*(\\./)?(${folders.join('|')})/(?!index\\.js$)`,
  message: 'Enter another folder through its index.ts.',
});
function boundaries(folder) {
  const others = FOLDERS.filter((name) => name !== folder);
  const domain = folder !== undefined && !COMPOSITION_FOLDERS.has(folder);
  return {
    files: folder === undefined ? ['src/*.ts'] : [`src/${folder}/**/*.ts`],
    ...(folder === undefined ? { ignores: ['src/app.ts', 'src/main.ts', 'src/server.ts'] } : {}),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...(domain || folder === undefined ? { paths: TRANSPORTS } : {}),
          patterns: [deepImport(others), ...(folder === 'llm' ? [] : [OFFLINE_MODEL]), ...(TRANSPORT_EDGES[folder] ?? [])],
        },
      ],
    },
  };
}

/** What of src/ the browser bundle may import values from: the wire protocol (types and constants, no zod). */
const BROWSER_UNSAFE_SRC = '(^|/)src/(?!protocol/wire/)';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'public/vendor/**', 'public/build/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  ...FOLDERS.map(boundaries),
  boundaries(undefined),
  // The composition root and server: they put transports and features together, entering folders by their index.
  { files: ['src/app.ts', 'src/main.ts', 'src/server.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [deepImport(FOLDERS)] }] } },
  {
    // The wire protocol is bundled into the browser client as is: types and constants only, nothing from outside.
    files: ['src/protocol/wire/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\./)', message: 'src/protocol/wire/ is browser-safe: it imports only its own files (no zod, no node, no packages).' },
            { regex: '^\\./.*/', message: 'src/protocol/wire/ is one flat folder of its own files.' },
          ],
        },
      ],
    },
  },
  // The browser client (docs/ARCHITECTURE.md, "Layers"): the bundle takes values only from the server's
  // browser-safe protocol modules (anything else of src/ as `import type`, which esbuild drops), and its layers
  // import downwards only: pages -> ui -> net.
  ...[
    { files: ['client/**/*.ts'], layers: [] },
    { files: ['client/ui/**/*.ts'], layers: ['pages'] },
    { files: ['client/net/**/*.ts'], layers: ['pages', 'ui'] },
  ].map(({ files, layers }) => ({
    files,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: BROWSER_UNSAFE_SRC,
              allowTypeImports: true,
              message: 'The bundle takes values only from src/protocol/wire/ (browser-safe); import anything else of src/ as a type.',
            },
            ...(layers.length > 0 ? [{ regex: `^(\\.\\./)+(${layers.join('|')})/`, message: 'client/ layers import downwards only: pages -> ui -> net.' }] : []),
          ],
        },
      ],
    },
  })),
  {
    files: ['scripts/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);

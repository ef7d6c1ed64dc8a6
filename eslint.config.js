// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'public/vendor/**', 'data/**', 'coverage/**'] },
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
  {
    files: ['scripts/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['public/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', fetch: 'readonly', location: 'readonly', localStorage: 'readonly', sessionStorage: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', XMLHttpRequest: 'readonly', FormData: 'readonly', URL: 'readonly', URLSearchParams: 'readonly', performance: 'readonly', requestAnimationFrame: 'readonly', navigator: 'readonly', Event: 'readonly', CustomEvent: 'readonly', HTMLElement: 'readonly', io: 'readonly' } },
  },
);

import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import globals from 'globals'

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'zlib', 'worker_threads', 'child_process', 'http', 'net', 'stream']
const pure = (what, { allowVue = false } = {}) => ({
  patterns: [
    { group: nodeBuiltins, message: `${what} has no Node imports.` },
    { group: ['electron', 'electron/*'], message: `${what} has no Electron imports.` },
    ...(allowVue ? [] : [{ group: ['vue', 'pinia', 'echarts', 'vue-echarts'], message: `${what} has no Vue imports.` }]),
  ],
})

export default tseslint.config(
  // bench/tools/aot holds AssemblyScript, whose decorators TypeScript's parser refuses
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'bench/data/**', 'bench/tools/aot/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,vue}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', pure('The renderer', { allowVue: true })] },
  },
  { files: ['src/main/model/**/*.ts'], rules: { 'no-restricted-imports': ['error', pure('The allocator model')] } },
  { files: ['src/shared/**/*.ts'], rules: { 'no-restricted-imports': ['error', pure('src/shared')] } },
  // the command's entry is CommonJS (bin/package.json): node starts it without its ES module loader
  {
    files: ['bin/**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)

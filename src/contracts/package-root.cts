// `#package-root` for a `require`: the same folder as package-root.ts's, without `import.meta`.
const { join }: typeof import('node:path') = require('node:path')

module.exports = { PACKAGE_ROOT: join(__dirname, '../../') }

// jest.config.js: Jest 30 with babel-jest (a babel.config.js for your JSX or TypeScript), on Node 20 to 24
module.exports = {
  // msw's own advice: jsdom, with Node's fetch, Request and Response, which plain jsdom lacks
  testEnvironment: 'jest-fixed-jsdom',
  // Jest's CommonJS cannot load ES modules on Node 20: compile the ESM-only packages with Babel too
  // (animals-mock, msw 2's rettime, until-async and @open-draft, Faker). Node 24.9+ can drop these two
  // lines: with NODE_OPTIONS=--experimental-vm-modules, Jest 30 requires ES modules as they are.
  transform: { '\\.[cm]?[jt]sx?$': 'babel-jest' },
  transformIgnorePatterns: ['/node_modules/(?!(animals-mock|rettime|until-async|@open-draft|@faker-js)/)'],
}

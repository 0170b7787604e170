// serve/jest.config.js: the end-to-end tests, run inside `animals-mock serve -- jest`. They call the
// fake over HTTP and import nothing of it or of msw: no transform beyond the app's own.
module.exports = {
  rootDir: '..',
  testEnvironment: 'jest-fixed-jsdom',
  testMatch: ['<rootDir>/src/**/*.e2e.jsx'],
}

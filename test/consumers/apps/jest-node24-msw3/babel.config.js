// The app's own Babel settings, as a React app under Jest has them: JSX, and code for this Node.
module.exports = {
  presets: [['@babel/preset-env', { targets: { node: 'current' } }], ['@babel/preset-react', { runtime: 'automatic' }]],
}

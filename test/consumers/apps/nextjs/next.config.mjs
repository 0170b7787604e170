// No telemetry, and a build that stays in this folder.
export default { typescript: { ignoreBuildErrors: false } }

import type { StorybookConfig } from '@storybook/react-vite'

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.tsx'],
  // msw's worker script (`msw init public`), served at the root beside the stories.
  staticDirs: ['../public'],
  addons: ['msw-storybook-addon'],
  core: { disableTelemetry: true },
}
export default config

import type { Preview } from '@storybook/react-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'

// The addon starts msw's worker once; each story brings its own handlers (parameters.msw), and
// the addon resets them between stories.
const preview: Preview = { loaders: [mswLoader()] }
export default preview

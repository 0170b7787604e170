import { expect, it } from 'vitest'
import { spawnCli, waitForBaseUrl } from '../support/cli.js'
import { closedPort } from '../support/deployments.js'

// As test/cli/serve.test.ts does for serve: the default is seen either listening or refused by name.
it('listens on port 4010 and host 127.0.0.1 by default', async () => {
  const cli = spawnCli(['proxy', '--target', `http://127.0.0.1:${await closedPort()}/v1`])
  try {
    const outcome = await Promise.race([waitForBaseUrl(cli).then((url) => ({ url })), cli.exited.then(() => ({ url: '' }))])
    if (outcome.url === '') {
      // Something else holds 4010 on this machine; the refusal still names the default.
      expect(cli.stderr()).toContain('port 4010 on 127.0.0.1 is already in use')
    } else {
      expect(outcome.url).toBe('http://127.0.0.1:4010/v1')
    }
  } finally {
    cli.child.kill('SIGKILL')
    await cli.exited
  }
})

// The hostile target of test/support in a process of its own, so that the 300 MB it streams never
// holds the probe's event loop: prints its base URL, then serves until it is killed.
import { gzipBomb, gzippedList, startHostileTarget } from '../test/support/hostile-target.js'

const target = await startHostileTarget({ bomb: await gzipBomb(), list: await gzippedList(300_000_000) })
console.log(target.baseUrl)

/** Whether a host name or address is this machine's loopback: `localhost`, 127.0.0.0/8 or `::1` (bracketed or not). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/.test(host)
}

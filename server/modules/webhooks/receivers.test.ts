import { describe, expect, it } from 'vitest';
import { RefusedReceiver, checkReceiverHost, receiverUrl, refusedAddress } from './receivers.ts';

describe('webhook receivers', () => {
  it('judges each address by WEBHOOK_RECEIVERS, and special-purpose ones never', () => {
    const cases: Array<[string, string | null, string | null, string | null]> = [
      // address, public, loopback, private
      ['93.184.216.34', null, null, null],
      ['2606:2800:220:1:248:1893:25c8:1946', null, null, null],
      ['127.0.0.1', 'loopback', null, null],
      ['127.8.9.10', 'loopback', null, null],
      ['::1', 'loopback', null, null],
      ['::ffff:127.0.0.1', 'loopback', null, null],
      ['10.2.3.4', 'private', 'private', null],
      ['172.20.0.1', 'private', 'private', null],
      ['192.168.0.10', 'private', 'private', null],
      ['::ffff:192.168.0.10', 'private', 'private', null],
      ['fd12:3456::1', 'private', 'private', null],
      ['169.254.169.254', 'special', 'special', 'special'],
      ['fe80::1', 'special', 'special', 'special'],
      ['0.0.0.0', 'special', 'special', 'special'],
      ['224.0.0.1', 'special', 'special', 'special'],
    ];
    for (const [address, ...expected] of cases) {
      const judged = (['public', 'loopback', 'private'] as const).map((receivers) =>
        refusedAddress(address, receivers),
      );
      expect(
        judged.map(
          (reason) => reason && (/special/.test(reason) ? 'special' : /private/.test(reason) ? 'private' : 'loopback'),
        ),
        address,
      ).toEqual(expected);
    }
  });

  it('takes only whole http(s) addresses without credentials', () => {
    expect(receiverUrl('https://hooks.example.com/in?x=1').hostname).toBe('hooks.example.com');
    for (const bad of [
      'hooks.example.com/in',
      'ftp://example.com/',
      'https://user:pw@example.com/',
      'javascript:alert(1)',
    ])
      expect(() => receiverUrl(bad), bad).toThrow(RefusedReceiver);
  });

  it('refuses a host whose name resolves to an address not allowed, or to none', async () => {
    await expect(checkReceiverHost(new URL('http://localhost:9/'), 'public')).rejects.toThrow('loopback');
    await expect(checkReceiverHost(new URL('http://localhost:9/'), 'loopback')).resolves.toBeUndefined();
    await expect(checkReceiverHost(new URL('http://[::1]:9/'), 'public')).rejects.toThrow('loopback');
    await expect(checkReceiverHost(new URL('http://no-such-host.invalid/'), 'loopback')).rejects.toThrow(
      'could not be found',
    );
  });
});

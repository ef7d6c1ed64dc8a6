import type { Socket } from 'socket.io';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * The client's address for per-address limits. A reverse proxy on this machine (loopback, the same rule as
 * express's `trust proxy: 'loopback'`) forwards the real one in `X-Forwarded-For`: walking that list from the right,
 * the first address that is not loopback is the client. A client connecting directly cannot spoof it: its own
 * address is not loopback, so the header is ignored.
 */
export function clientAddress(socket: Pick<Socket, 'handshake'>): string {
  return forwardedClientAddress(socket.handshake.address, socket.handshake.headers['x-forwarded-for']);
}

/** The same rule for a raw connection (an engine.io handshake request): its direct address and forwarded header. */
export function forwardedClientAddress(direct: string, header: string | string[] | undefined): string {
  if (!LOOPBACK.test(direct)) return direct;
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((entry) => entry.trim());
  for (let index = forwarded.length - 1; index >= 0; index -= 1) {
    const address = forwarded[index]!;
    if (address !== '' && !LOOPBACK.test(address)) return address;
  }
  return direct;
}

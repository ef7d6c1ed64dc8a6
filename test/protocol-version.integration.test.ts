import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handshakeAuth } from '../client/net/socket.js';
import { PROTOCOL_VERSION } from '../src/protocol/wire/ack.js';
import { connected, startTestApp, type TestApp } from './support/test-app.js';

/** The connect_error a refused handshake gives: its message is the code, `data` has the details. */
async function refusal(app: TestApp, namespace: string, auth: Record<string, unknown>): Promise<{ message: string; data?: Record<string, unknown> }> {
  const socket = app.socket(namespace, auth);
  try {
    await connected(socket);
  } catch (error) {
    return error as { message: string; data?: Record<string, unknown> };
  } finally {
    socket.disconnect();
  }
  throw new Error(`${namespace} accepted ${JSON.stringify(auth)}`);
}

describe('PROTOCOL_VERSION in the handshake (docs/PROTOCOL.md "Versions")', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  for (const namespace of ['/tutor', '/monitor', '/quiz']) {
    it(`${namespace}: a missing or older version is CLIENT_TOO_OLD, a newer one CLIENT_TOO_NEW, before the token is read`, async () => {
      const missing = await refusal(app, namespace, { protocolVersion: undefined, token: 'not-a-token' });
      expect(missing.message).toBe('CLIENT_TOO_OLD');
      expect(missing.data).toMatchObject({ code: 'CLIENT_TOO_OLD', serverVersion: PROTOCOL_VERSION, clientVersion: null });

      const older = await refusal(app, namespace, { protocolVersion: PROTOCOL_VERSION - 1, token: 'not-a-token' });
      expect(older.data).toMatchObject({ code: 'CLIENT_TOO_OLD', clientVersion: PROTOCOL_VERSION - 1 });

      const spelled = await refusal(app, namespace, { protocolVersion: String(PROTOCOL_VERSION) });
      expect(spelled.message).toBe('CLIENT_TOO_OLD');

      const newer = await refusal(app, namespace, { protocolVersion: PROTOCOL_VERSION + 1, token: 'not-a-token' });
      expect(newer.message).toBe('CLIENT_TOO_NEW');
      expect(newer.data).toMatchObject({ code: 'CLIENT_TOO_NEW', serverVersion: PROTOCOL_VERSION, clientVersion: PROTOCOL_VERSION + 1 });
      expect(typeof newer.data?.message).toBe('string');
    });
  }

  it('with the right version the handshake goes on to the token check (and a guest may enter /quiz)', async () => {
    const forged = await refusal(app, '/tutor', { protocolVersion: PROTOCOL_VERSION, token: 'not-a-token' });
    expect(forged.message).toBe('UNAUTHORIZED');
    const guest = app.socket('/quiz', { protocolVersion: PROTOCOL_VERSION });
    await connected(guest);
    guest.disconnect();
  });

  it('the pages send the version of this build (client/net handshakeAuth, the one handshake of every page socket)', () => {
    expect(handshakeAuth('token')).toEqual({ protocolVersion: PROTOCOL_VERSION, token: 'token' });
    expect(handshakeAuth(null)).toEqual({ protocolVersion: PROTOCOL_VERSION });
  });
});

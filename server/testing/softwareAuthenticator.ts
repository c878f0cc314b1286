import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A passkey authenticator in software, for tests: an ES256 key pair, `fmt: none` attestation and assertions signed
 * as a real authenticator signs them (WebAuthn Level 2, sections 6.1 and 6.5), so the server's checks run for real.
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private userHandle = Buffer.alloc(0);
  /** The signature counter: each assertion moves it on, unless a test sets it back (a cloned authenticator). */
  counter = 0;

  constructor(
    /** Where the browser says it is; a test gives another to play a phishing page. */
    public origin: string,
  ) {}

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  /** What `startRegistration` answers to the server's options. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, rpId = options.rp.id ?? '') {
    this.userHandle = Buffer.from(options.user.id, 'base64url');
    const clientData = this.clientData('webauthn.create', options.challenge);
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Buffer>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authData(rpId, 0x45),
      Buffer.alloc(16),
      length,
      this.credentialId,
      cbor(coseKey),
    ]);
    const attestation = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: clientData.toString('base64url'),
        attestationObject: attestation.toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** What `startAuthentication` answers to the server's options (the counter moves on first). */
  assert(options: { challenge: string; rpId?: string }, rpId = options.rpId ?? '', signWith?: KeyObject) {
    this.counter += 1;
    const clientData = this.clientData('webauthn.get', options.challenge);
    const authData = this.authData(rpId, 0x05);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, signWith ?? this.keys.privateKey).toString('base64url'),
        userHandle: this.userHandle.toString('base64url'),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** rpIdHash, flags (user present 0x01, verified 0x04, attested credential 0x40), counter. */
  private authData(rpId: string, flags: number): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), counter]);
  }
}

/** The few CBOR (RFC 8949) items attestation needs: integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const bytes = Buffer.alloc(3);
    bytes[0] = (major << 5) | 25;
    bytes.writeUInt16BE(n, 1);
    return bytes;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Map)
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

// A small X.509 issuer (ECDSA P-256, SHA-256) on node:crypto: the sandbox's cluster CA and the certificates it
// signs (kubelet serving, API server client, the in-pod API endpoint). Node can verify and serve certificates but
// not make them, and shelling out to openssl for every sandbox would add a host dependency; the DER below is the
// minimum RFC 5280 asks for (basicConstraints, keyUsage, extKeyUsage, subjectAltName, key identifiers).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIPv4 } from 'node:net';

/** A certificate and its private key, both PEM. */
export interface CertificateAndKey {
  cert: string;
  key: string;
}

export interface CertificateRequest {
  commonName: string;
  /** Subject O= values: Kubernetes reads them as groups (e.g. system:masters). */
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  usages: Array<'server' | 'client'>;
  validDays?: number;
}

// ---- DER -------------------------------------------------------------------------------------------------------
function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    length = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), length, content]);
}
const seq = (...items: Buffer[]): Buffer => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => der(0x31, Buffer.concat(items));
/**
 * A non-negative DER INTEGER from big-endian bytes: minimal length (leading zero bytes dropped, as DER requires:
 * OpenSSL rejects a certificate whose serial starts 00 then a byte below 0x80), and a 00 prefix where the high bit
 * would make it negative.
 */
export function derInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const minimal = bytes.subarray(start);
  return der(0x02, (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}
const integer = derInteger;
const octets = (bytes: Buffer): Buffer => der(0x04, bytes);
const utf8 = (text: string): Buffer => der(0x0c, Buffer.from(text, 'utf8'));
const bool = (value: boolean): Buffer => der(0x01, Buffer.from([value ? 0xff : 0]));
const explicit = (n: number, content: Buffer): Buffer => der(0xa0 + n, content);

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const value of rest) {
    const groups: number[] = [];
    for (let v = value; ; v = Math.floor(v / 128)) { groups.unshift(v % 128); if (v < 128) break; }
    out.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
  }
  return der(0x06, Buffer.from(out));
}

const bitString = (bytes: Buffer, unusedBits = 0): Buffer => der(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));

/** A one-byte named-bit list (keyUsage): DER drops the trailing zero bits. */
function flags(byte: number): Buffer {
  let unused = 0;
  while (unused < 7 && (byte & (1 << unused)) === 0) unused += 1;
  return bitString(Buffer.from([byte]), unused);
}

function time(date: Date): Buffer {
  const iso = date.toISOString();
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  // UTCTime until 2049, GeneralizedTime after (RFC 5280 4.1.2.5).
  return date.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(digits.slice(2))) : der(0x18, Buffer.from(digits));
}

const name = (commonName: string, organizations: string[] = []): Buffer =>
  seq(...organizations.map((o) => set(seq(oid('2.5.4.10'), utf8(o)))), set(seq(oid('2.5.4.3'), utf8(commonName))));

const extension = (id: string, critical: boolean, value: Buffer): Buffer => seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));

function keyId(publicKey: KeyObject): Buffer {
  // RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits (here over the whole SPKI: any stable id will do).
  return createHash('sha1').update(publicKey.export({ type: 'spki', format: 'der' })).digest();
}

interface Signer { subject: Buffer; key: KeyObject; keyId: Buffer }

function certificate(request: CertificateRequest & { ca: boolean }, subjectKey: { publicKey: KeyObject }, issuer: Signer | 'self', selfKey: KeyObject): string {
  const now = Date.now();
  const validity = seq(time(new Date(now - 3600_000)), time(new Date(now + (request.validDays ?? 3650) * 86_400_000)));
  const subject = name(request.commonName, request.organizations);
  const signer: Signer = issuer === 'self' ? { subject, key: selfKey, keyId: keyId(subjectKey.publicKey) } : issuer;
  const serial = randomBytes(16);
  // Positive (high bit clear) and minimal (first octet never zero): DER forbids a redundant leading zero, and
  // OpenSSL rejects such a certificate ("illegal padding") when it is presented in a TLS handshake.
  serial[0] = ((serial[0] ?? 0) & 0x3f) | 0x40;
  const usageBits = request.ca ? 0x80 | 0x04 | 0x02 : 0x80 | 0x20; // digitalSignature (+ keyCertSign, cRLSign | keyEncipherment)
  const extensions: Buffer[] = [
    extension('2.5.29.19', true, request.ca ? seq(bool(true)) : seq()),
    extension('2.5.29.15', true, flags(usageBits)),
    extension('2.5.29.14', false, octets(keyId(subjectKey.publicKey))),
    extension('2.5.29.35', false, seq(der(0x80, signer.keyId))),
  ];
  const ekus = request.usages.map((u) => oid(u === 'server' ? '1.3.6.1.5.5.7.3.1' : '1.3.6.1.5.5.7.3.2'));
  if (ekus.length > 0 && !request.ca) extensions.push(extension('2.5.29.37', false, seq(...ekus)));
  const altNames = [
    ...(request.dnsNames ?? []).map((d) => der(0x82, Buffer.from(d, 'ascii'))),
    ...(request.ipAddresses ?? []).filter(isIPv4).map((ip) => der(0x87, Buffer.from(ip.split('.').map(Number)))),
  ];
  if (altNames.length > 0) extensions.push(extension('2.5.29.17', false, seq(...altNames)));
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaWithSha256,
    signer.subject,
    validity,
    subject,
    subjectKey.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...extensions)),
  );
  const signature = sign('sha256', tbs, signer.key);
  const body = seq(tbs, ecdsaWithSha256, bitString(signature)).toString('base64').replace(/(.{64})/g, '$1\n').trimEnd();
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

const newKey = (): { publicKey: KeyObject; privateKey: KeyObject } => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const pemKey = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A self-signed CA certificate (10 years). */
export function createCertificateAuthority(commonName: string): CertificateAndKey {
  const keys = newKey();
  return { cert: certificate({ commonName, usages: [], ca: true }, keys, 'self', keys.privateKey), key: pemKey(keys.privateKey) };
}

/** A leaf certificate signed by `ca`. */
export function issueCertificate(ca: CertificateAndKey, request: CertificateRequest): CertificateAndKey {
  const keys = newKey();
  const caKey = createPrivateKey(ca.key);
  const caDer = Buffer.from(ca.cert.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const signer: Signer = { subject: subjectOf(caDer), key: caKey, keyId: keyId(createPublicKey(caKey)) };
  return { cert: certificate({ ...request, ca: false }, keys, signer, keys.privateKey), key: pemKey(keys.privateKey) };
}

/** A self-signed serving certificate (what a kubelet makes for itself when no CA signs its endpoint). */
export function selfSignedCertificate(request: CertificateRequest): CertificateAndKey {
  const keys = newKey();
  return { cert: certificate({ ...request, ca: false }, keys, 'self', keys.privateKey), key: pemKey(keys.privateKey) };
}

// ---- reading our own DER back: the issuer's subject Name, byte for byte ------------------------------------------
function readTlv(buf: Buffer, offset: number): { start: number; end: number; headerEnd: number } {
  const first = buf[offset + 1] ?? 0;
  let length = first;
  let headerEnd = offset + 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    length = 0;
    for (let i = 0; i < count; i += 1) length = length * 256 + (buf[offset + 2 + i] ?? 0);
    headerEnd += count;
  }
  return { start: offset, headerEnd, end: headerEnd + length };
}

function subjectOf(certDer: Buffer): Buffer {
  const cert = readTlv(certDer, 0);
  const tbs = readTlv(certDer, cert.headerEnd);
  let at = tbs.headerEnd;
  // version [0], serial, signature algorithm, issuer, validity, subject
  const fields: Array<{ start: number; end: number }> = [];
  while (fields.length < 6) { const f = readTlv(certDer, at); fields.push(f); at = f.end; }
  const subject = fields[5] as { start: number; end: number };
  return certDer.subarray(subject.start, subject.end);
}

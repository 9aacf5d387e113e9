import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority, derInteger, issueCertificate, selfSignedCertificate } from '../../src/pki/x509.ts';

describe('sandbox X.509 issuer', () => {
  const ca = createCertificateAuthority('rayjob-sandbox-ca');

  // A random serial starting 00 then a byte below 0x80 was written unshortened: OpenSSL (so Node) rejects such a
  // certificate, and one sandbox in about 256 had a cluster CA no pod could trust.
  it.each([
    { bytes: [0x00, 0x22, 0xb7], der: [0x02, 0x02, 0x22, 0xb7] },
    { bytes: [0x00, 0x00, 0x05], der: [0x02, 0x01, 0x05] },
    { bytes: [0x00, 0x9c], der: [0x02, 0x02, 0x00, 0x9c] },
    { bytes: [0x9c, 0x01], der: [0x02, 0x03, 0x00, 0x9c, 0x01] },
    { bytes: [0x00], der: [0x02, 0x01, 0x00] },
  ])('encodes the integer $bytes in minimal DER', ({ bytes, der }) => {
    expect([...derInteger(Buffer.from(bytes))]).toEqual(der);
  });

  it('makes a CA certificate that signs itself and may sign others', () => {
    const cert = new X509Certificate(ca.cert);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=rayjob-sandbox-ca');
    expect(cert.verify(cert.publicKey)).toBe(true);
  });

  it('issues leaf certificates with the subject, groups and alternative names asked for', () => {
    const leaf = new X509Certificate(issueCertificate(ca, { commonName: 'system:kube-apiserver', organizations: ['system:masters'], dnsNames: ['localhost'], ipAddresses: ['127.0.0.1', '10.244.3.1'], usages: ['server', 'client'] }).cert);
    expect(leaf.ca).toBe(false);
    expect(leaf.subject.split('\n').sort()).toEqual(['CN=system:kube-apiserver', 'O=system:masters']);
    expect(leaf.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:10.244.3.1');
    expect(leaf.checkIssued(new X509Certificate(ca.cert))).toBe(true);
    expect(leaf.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
  });

  it('encodes every serial number minimally (a leading zero octet is "illegal padding" to OpenSSL, which then refuses the certificate)', () => {
    // One serial in 128 started with a zero octet before the fix: 1,000 certificates find it almost surely.
    const serials = Array.from({ length: 1000 }, () => new X509Certificate(issueCertificate(ca, { commonName: 'serial', usages: ['client'] }).cert).serialNumber);
    expect(serials.filter((s) => s.startsWith('00'))).toEqual([]);
    expect(new Set(serials.map((s) => s.length))).toEqual(new Set([32]));
  });

  it('serves TLS that a client trusting the CA accepts, with client certificates checked against the CA', async () => {
    const serving = issueCertificate(ca, { commonName: 'kubelet', ipAddresses: ['127.0.0.1'], usages: ['server'] });
    const client = issueCertificate(ca, { commonName: 'kube-apiserver-kubelet-client', organizations: ['system:masters'], usages: ['client'] });
    const server = createServer({ ...serving, ca: ca.cert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as import('node:tls').TLSSocket;
      res.end(socket.authorized ? `hello ${socket.getPeerCertificate().subject.CN}` : `anonymous: ${String(socket.authorizationError)}`);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const get = (options: object): Promise<string> => new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/', ca: ca.cert, ...options }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => { body += c.toString(); });
        res.on('end', () => resolve(body));
      }).on('error', reject).end();
    });
    try {
      expect(await get({ cert: client.cert, key: client.key })).toBe('hello kube-apiserver-kubelet-client');
      const stranger = selfSignedCertificate({ commonName: 'stranger', usages: ['client'] });
      expect(await get({ cert: stranger.cert, key: stranger.key })).toMatch(/^anonymous: /);
      await expect(get({ ca: selfSignedCertificate({ commonName: 'other', usages: ['server'] }).cert })).rejects.toThrow();
    } finally {
      server.close();
    }
  });
});

import * as http from 'node:http';
import type * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { ApiHttpHandler, HttpHandlerOptions } from './handler';
import { KeyPair } from '../auth/pki';
import { createHttpsServer } from '../../util/https-server';

/**
 * The API server's ports, as the seed's §2.4 describes them: the secure port (HTTPS,
 * --secure-port 6443 on --bind-address, authentication and authorization) and the
 * insecure port (plain HTTP, --insecure-port, off when 0, on --insecure-bind-address
 * 127.0.0.1, no authentication). Client certificates are asked for but not required, so
 * token and anonymous clients still connect.
 */
export interface ServingOptions {
  securePort: number;
  bindAddress: string;
  insecurePort: number;
  insecureBindAddress: string;
  serving?: KeyPair;
  /** PEM bundle of CAs trusted for client certificates (--client-ca-file). */
  clientCA?: string;
  /** Ports that are on listen on any free port instead (tests). */
  anyFreePort?: boolean;
}

export interface Listening {
  secure?: { host: string; port: number };
  insecure?: { host: string; port: number };
}

function listen(server: http.Server, port: number, host: string): Promise<{ host: string; port: number }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      resolve({ host: a.address, port: a.port });
    });
  });
}

/** Loopback addresses only: the insecure port never listens anywhere else. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * Go's crypto/tls defaults that kube-apiserver serves with (no --tls-cipher-suites): TLS 1.3's
 * suites, and for TLS 1.2 only ECDHE key exchange (forward secrecy) with AEAD ciphers.
 */
export const TLS_CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/**
 * Idle keep-alive connections stay open longer than Go clients keep them (net/http's
 * Transport: IdleConnTimeout 90 s; upstream's server: IdleTimeout 90 s). With Node's 5 s
 * default, kubectl proxy reused a connection the server had just closed and answered the
 * request with "EOF" (502).
 */
function keepIdleConnections(server: http.Server): void {
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  server.on('clientError', answerClientError);
}

/**
 * kube-apiserver's Go server reads a request line and headers of up to MaxHeaderBytes (1 MiB,
 * set by SecureServingInfo.Serve) and answers 431 past it; Node's default is 16 KiB, so a long
 * label selector in a URL was refused here that upstream serves. Past the limit the answer is
 * Go's 431, as a Status.
 */
const MAX_HEADER_BYTES = 1 << 20;

function answerClientError(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const code = tooLarge ? 431 : 400;
  const message = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: tooLarge
      ? 'the request line and headers exceed 1 MiB'
      : `malformed HTTP request: ${err.code ?? err.message}`,
    ...(tooLarge ? {} : { reason: 'BadRequest' }),
    code,
  });
  socket.end(
    `HTTP/1.1 ${code} ${message}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export class ApiHttpServer {
  private secure?: https.Server;
  private insecure?: http.Server;
  readonly listening: Listening = {};

  constructor(
    private readonly handlerOptions: HttpHandlerOptions,
    private readonly serving: ServingOptions,
  ) {}

  async start(): Promise<Listening> {
    const s = this.serving;
    if (s.insecurePort !== 0 && !isLoopback(s.insecureBindAddress)) {
      throw new Error(
        `--insecure-bind-address ${s.insecureBindAddress} is not a loopback address: the insecure port skips authentication and may only listen on localhost`,
      );
    }
    if (s.securePort !== 0) {
      if (!s.serving) throw new Error('the secure port needs a serving certificate');
      const handler = new ApiHttpHandler({
        ...this.handlerOptions,
        serverAddress: () => `${this.listening.secure?.host}:${this.listening.secure?.port}`,
      });
      this.secure = createHttpsServer(
        {
          cert: s.serving.certPem,
          key: s.serving.keyPem,
          ca: s.clientCA,
          requestCert: true,
          rejectUnauthorized: false,
          minVersion: 'TLSv1.2',
          ciphers: TLS_CIPHERS,
          honorCipherOrder: true,
          maxHeaderSize: MAX_HEADER_BYTES,
        },
        handler.listener,
      );
      keepIdleConnections(this.secure);
      this.secure.on('upgrade', handler.upgradeListener);
      this.listening.secure = await listen(this.secure, s.anyFreePort ? 0 : s.securePort, s.bindAddress);
    }
    if (s.insecurePort !== 0) {
      const handler = new ApiHttpHandler({
        ...this.handlerOptions,
        authenticator: undefined,
        authorizer: undefined,
        serverAddress: () => `${this.listening.insecure?.host}:${this.listening.insecure?.port}`,
      });
      this.insecure = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler.listener);
      keepIdleConnections(this.insecure);
      this.insecure.on('upgrade', handler.upgradeListener);
      this.listening.insecure = await listen(this.insecure, s.anyFreePort ? 0 : s.insecurePort, s.insecureBindAddress);
    }
    return this.listening;
  }

  async stop(): Promise<void> {
    const close = (srv?: http.Server) =>
      new Promise<void>((resolve) => {
        if (!srv) return resolve();
        srv.closeAllConnections();
        srv.close(() => resolve());
      });
    await Promise.all([close(this.secure), close(this.insecure)]);
  }
}

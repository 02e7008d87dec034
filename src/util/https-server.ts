import type { RequestListener } from 'node:http';
import * as https from 'node:https';
import type { TLSSocket } from 'node:tls';

/**
 * An HTTPS server whose requests survive Node's backpressure pause.
 *
 * Node's HTTP server stops reading a connection when a request arrives while the previous
 * answer is still being written (`_http_server` parserOnIncoming: `ws.needDrain`), and pauses
 * its parser after the current chunk. On a TLS connection it reads through the TLS handle
 * directly ("consumed"), and the handle hands over every record it has decrypted from one TCP
 * read, one after another, before the pause can stop it. A request split into several TLS
 * records (Go's crypto/tls keeps records to about one TCP segment early in a connection, so
 * kubectl proxy's and client-go's larger requests are) then has its later records fed to a
 * paused parser: Node answers 400 "Parse Error: Paused" (HPE_PAUSED) and closes the connection.
 * CI saw it as `malformed HTTP request: HPE_PAUSED` on a request through kubectl proxy.
 *
 * Marking the TLS handle as already consumed, before the HTTP server's own connection listener
 * runs, makes that listener read the socket as a stream instead (socketOnData): a paused
 * stream keeps what arrives until it resumes, so no record reaches a paused parser.
 * test/util/https-server.test.ts sends such a request and fails without this.
 */
export function createHttpsServer(options: https.ServerOptions, listener: RequestListener): https.Server {
  const server = https.createServer(options, listener);
  server.prependListener('secureConnection', (socket: TLSSocket) => {
    const handle = (socket as TLSSocket & { _handle?: { _consumed?: boolean } })._handle;
    if (handle) handle._consumed = true;
  });
  return server;
}

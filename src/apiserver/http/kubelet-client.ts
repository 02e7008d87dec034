import * as https from 'node:https';
import * as tls from 'node:tls';
import type { IncomingMessage } from 'node:http';
import { errors, StatusError } from '../../api/errors';
import { Node } from '../../api/core';

/**
 * How the API server reaches a kubelet (COMM-KUBELET): the node's address of the first
 * preferred type (upstream --kubelet-preferred-address-types default Hostname, InternalDNS,
 * InternalIP, ExternalDNS, ExternalIP) and status.daemonEndpoints.kubeletEndpoint.Port,
 * over HTTPS. Without --kubelet-certificate-authority the kubelet's certificate is not
 * verified, as the seed warns; with it, the chain and the address are checked.
 * Upstream: pkg/kubelet/client (KubeletClientConfig, NodeConnectionInfoGetter).
 */
export const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

/** Where a node address really is: hollow nodes all listen on loopback, at ports of their own. */
export interface NodeDialer {
  dial(nodeName: string, host: string, port: number): { host: string; port: number } | undefined;
}

export interface KubeletClientOptions {
  /** --kubelet-certificate-authority, PEM; undefined = do not verify. */
  certificateAuthority?: string;
  dialer: NodeDialer;
  /** --kubelet-client-certificate and --kubelet-client-key, PEM; undefined = none (anonymous to kubelets). */
  clientCertificate?: { certPem: string; keyPem: string };
}

export function nodeAddress(node: Node): { host: string; port: number } {
  const addresses = node.status?.addresses ?? [];
  for (const type of PREFERRED_ADDRESS_TYPES) {
    const a = addresses.find((x) => x.type === type && x.address);
    if (a) return { host: a.address, port: node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 10250 };
  }
  throw errors.badRequest(`no preferred addresses found; known addresses: ${JSON.stringify(addresses)}`);
}

/**
 * A kubelet the API server could not reach for a plain request (logs, /pods, node and pod
 * proxy). Each caller says it as upstream does: the log streamer's http.Client wraps the dial
 * error in a url.Error (`Get "https://…": dial tcp …`), which ErrorToAPIStatus turns into a 500
 * with no reason; the proxy's transport (apimachinery util/proxy Transport.RoundTrip) gets the
 * bare dial error and answers 503 "error trying to reach service: …".
 */
export class KubeletUnreachable extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    /** the dial or TLS error in Go's words, e.g. "dial tcp 10.4.42.5:10250: connect: no route to host" */
    readonly dialError: string,
  ) {
    // url.Error's Op is the method as net/http spells it in that message: "Get", "Post".
    super(`${method[0]}${method.slice(1).toLowerCase()} "${url}": ${dialError}`);
  }
}

/** Go's wording for dial and TLS failures, so kubectl prints what a real API server would. */
function describe(e: NodeJS.ErrnoException, host: string, port: number): string {
  switch (e.code) {
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: ${e.message}`;
    case 'ECONNREFUSED':
      return `dial tcp ${host}:${port}: connect: connection refused`;
    default:
      return e.message;
  }
}

export class KubeletClient {
  constructor(private readonly options: KubeletClientOptions) {}

  /**
   * Opens a connection to a node's kubelet and sends the head of an upgrade request
   * (exec, attach, port-forward); the caller reads the kubelet's answer (101 or an error)
   * from the socket and then relays bytes both ways, as upstream's UpgradeAwareHandler.
   */
  dial(node: Node, method: string, pathAndQuery: string, headers: Record<string, string>): Promise<tls.TLSSocket> {
    const logical = nodeAddress(node);
    const url = `https://${logical.host}:${logical.port}${pathAndQuery}`;
    const real = this.options.dialer.dial(node.metadata.name!, logical.host, logical.port);
    if (!real)
      return Promise.reject(
        errors.serviceUnavailable(
          `error dialing backend: dial tcp ${logical.host}:${logical.port}: connect: no route to host`,
        ),
      );
    const ca = this.options.certificateAuthority;
    return new Promise((resolve, reject) => {
      const socket = tls.connect({
        host: real.host,
        port: real.port,
        ca,
        rejectUnauthorized: ca !== undefined,
        checkServerIdentity: (_host, cert) => tls.checkServerIdentity(logical.host, cert),
        ...this.clientCertificate(),
      });
      const fail = (e: Error) =>
        reject(
          errors.internal(
            `error dialing backend: ${describe(e as NodeJS.ErrnoException, logical.host, logical.port)} (${method} "${url}")`,
          ),
        );
      socket.once('error', fail);
      socket.once('secureConnect', () => {
        socket.off('error', fail);
        const lines = [
          `${method} ${pathAndQuery} HTTP/1.1`,
          `Host: ${logical.host}:${logical.port}`,
          ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        ];
        socket.write(`${lines.join('\r\n')}\r\n\r\n`);
        resolve(socket);
      });
    });
  }

  /** --kubelet-client-certificate/--kubelet-client-key: how the API server proves itself to kubelets. */
  private clientCertificate(): { cert?: string; key?: string } {
    return this.options.clientCertificate
      ? { cert: this.options.clientCertificate.certPem, key: this.options.clientCertificate.keyPem }
      : {};
  }

  /**
   * GET (or another method) on the kubelet of a node; resolves with its response stream, rejects
   * with KubeletUnreachable when the kubelet cannot be dialled or its certificate is refused.
   */
  request(node: Node, method: string, pathAndQuery: string, body?: Buffer): Promise<IncomingMessage> {
    const logical = nodeAddress(node);
    const url = `https://${logical.host}:${logical.port}${pathAndQuery}`;
    const real = this.options.dialer.dial(node.metadata.name!, logical.host, logical.port);
    if (!real)
      return Promise.reject(
        new KubeletUnreachable(method, url, `dial tcp ${logical.host}:${logical.port}: connect: no route to host`),
      );
    const ca = this.options.certificateAuthority;
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          host: real.host,
          port: real.port,
          method,
          path: pathAndQuery,
          ca,
          rejectUnauthorized: ca !== undefined,
          servername: undefined,
          checkServerIdentity: (_host, cert) => tls.checkServerIdentity(logical.host, cert),
          ...this.clientCertificate(),
        },
        resolve,
      );
      req.on('error', (e) =>
        reject(new KubeletUnreachable(method, url, describe(e as NodeJS.ErrnoException, logical.host, logical.port))),
      );
      req.end(body);
    });
  }
}

/** NewGenericServerResponse's reason and message for a status code (k8s.io/apimachinery errors). */
const GENERIC: Record<number, [string, string | undefined]> = {
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  403: ['Forbidden', undefined],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  409: ['Conflict', 'the server reported a conflict'],
  415: ['UnsupportedMediaType', undefined],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: [
    'Timeout',
    'the server was unable to return a response in the time allotted, but may still be processing the request',
  ],
};

/**
 * A kubelet's answer outside 200–206 becomes the Status upstream's
 * GenericHttpResponseChecker makes of it (pods/log): 500 → InternalError with the body,
 * 400 → BadRequest with the body, anything else NewGenericServerResponse with an empty
 * verb, e.g. "the server does not allow this method on the requested resource ( pods/log web)".
 */
export async function checkKubeletResponse(
  res: IncomingMessage,
  qualifiedResource: string,
  name: string,
): Promise<void> {
  const code = res.statusCode ?? 0;
  if (code >= 200 && code <= 206) return;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res) {
    if (size < 4096) chunks.push(c as Buffer);
    size += (c as Buffer).length;
  }
  const body = Buffer.concat(chunks).subarray(0, 4096).toString('utf8');
  if (code === 500) throw errors.internal(body);
  if (code === 400) throw errors.badRequest(body);
  const [reason, fixed] =
    GENERIC[code] ??
    (code >= 500
      ? ['InternalError', `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`]
      : ['Unknown', `the server responded with the status code ${code} but did not return more information`]);
  const message = `${fixed ?? body} ( ${qualifiedResource} ${name})`;
  throw new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
    details: { name, kind: qualifiedResource.split('/')[0] },
  });
}

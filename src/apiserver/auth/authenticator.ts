import * as fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { errors } from '../../api/errors';
import { UserInfo } from '../../api/request';

/**
 * Authentication on the secure port, as upstream's union authenticator: client
 * certificates (CN = user, each O = a group), bearer tokens (--token-auth-file, and any
 * TokenAuthenticator such as the service-account token signer), then anonymous. A request
 * that presents a credential which fails is refused (401), never treated as anonymous.
 * Upstream: k8s.io/apiserver/pkg/authentication (x509, tokenfile, anonymous, group adder).
 */
export interface TokenAuthenticator {
  /** The user a bearer token stands for, or undefined when this authenticator does not know it. */
  authenticateToken(token: string): Promise<UserInfo | undefined> | UserInfo | undefined;
}

export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

function withAuthenticated(user: UserInfo): UserInfo {
  return user.groups.includes('system:authenticated') ? user : { ...user, groups: [...user.groups, 'system:authenticated'] };
}

/** --token-auth-file: CSV lines token,user,uid[,"group1,group2"]. */
export class TokenFile implements TokenAuthenticator {
  private readonly tokens = new Map<string, UserInfo>();

  constructor(text: string) {
    for (const [i, line] of text.split(/\r?\n/).entries()) {
      if (!line.trim() || line.trim().startsWith('#')) continue;
      const cells = parseCsvLine(line);
      if (cells.length < 3) throw new Error(`token file line ${i + 1}: want token,user,uid[,"groups"]`);
      const [token, username, uid, groups] = cells;
      this.tokens.set(token, { username, uid, groups: groups ? groups.split(',').map((g) => g.trim()).filter(Boolean) : [] });
    }
  }

  static load(path: string): TokenFile {
    return new TokenFile(fs.readFileSync(path, 'utf8'));
  }

  authenticateToken(token: string): UserInfo | undefined {
    return this.tokens.get(token);
  }
}

function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; }
      else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { out.push(cur); cur = ''; }
    else cur += ch;
  }
  out.push(cur);
  return out.map((c) => c.trim());
}

export interface AuthenticatorOptions {
  tokenAuthenticators?: TokenAuthenticator[];
  /** --anonymous-auth (default true). */
  anonymous?: boolean;
}

export class RequestAuthenticator {
  readonly tokens: TokenAuthenticator[];

  constructor(private readonly options: AuthenticatorOptions = {}) {
    this.tokens = [...(options.tokenAuthenticators ?? [])];
  }

  /** Adds a token authenticator (e.g. the service-account token signer) after start. */
  addTokenAuthenticator(t: TokenAuthenticator): void {
    this.tokens.push(t);
  }

  async authenticate(req: IncomingMessage): Promise<UserInfo> {
    const socket = req.socket as TLSSocket;
    if (socket.encrypted && !socket.authorized && Object.keys(socket.getPeerCertificate?.() ?? {}).length > 0) {
      throw errors.unauthorized(); // a client certificate no trusted CA signed
    }
    if (socket.encrypted && socket.authorized) {
      const subject = socket.getPeerCertificate()?.subject as unknown as Record<string, string | string[]> | undefined;
      const cn = subject?.CN;
      if (cn) {
        const o = subject?.O;
        const groups = o === undefined ? [] : Array.isArray(o) ? o : [o];
        return withAuthenticated({ username: Array.isArray(cn) ? cn[0] : cn, groups });
      }
    }
    const auth = req.headers.authorization;
    if (auth !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      if (m) {
        for (const t of this.tokens) {
          const user = await t.authenticateToken(m[1]);
          if (user) return withAuthenticated(user);
        }
        throw errors.unauthorized();
      }
    }
    if (this.options.anonymous === false) throw errors.unauthorized();
    return ANONYMOUS;
  }
}

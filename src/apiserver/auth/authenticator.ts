import * as fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { timingSafeEqual } from 'node:crypto';
import { errors } from '../../api/errors';
import { UserInfo } from '../../api/request';

/**
 * Authentication on the secure port, as upstream's union authenticator: client
 * certificates (CN = user, each O = a group), HTTP basic auth (--basic-auth-file, v1.12 only),
 * bearer tokens (--token-auth-file, and any TokenAuthenticator such as the service-account
 * token signer), then anonymous. A request
 * that presents a credential which fails is refused (401), never treated as anonymous.
 * Upstream: k8s.io/apiserver/pkg/authentication (x509, tokenfile, anonymous, group adder).
 */
export interface TokenAuthenticator {
  /** The user a bearer token stands for, or undefined when this authenticator does not know it. */
  authenticateToken(token: string): Promise<UserInfo | undefined> | UserInfo | undefined;
}

export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

function withAuthenticated(user: UserInfo): UserInfo {
  return user.groups.includes('system:authenticated')
    ? user
    : { ...user, groups: [...user.groups, 'system:authenticated'] };
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
      this.tokens.set(token, {
        username,
        uid,
        groups: groups
          ? groups
              .split(',')
              .map((g) => g.trim())
              .filter(Boolean)
          : [],
      });
    }
  }

  static load(path: string): TokenFile {
    return new TokenFile(fs.readFileSync(path, 'utf8'));
  }

  authenticateToken(token: string): UserInfo | undefined {
    return this.tokens.get(token);
  }
}

/**
 * --basic-auth-file (v1.12; removed in v1.19): CSV lines password,user,uid[,"group1,group2"],
 * as upstream's passwordfile authenticator reads them (at least 3 columns).
 */
export class BasicAuthFile {
  private readonly users = new Map<string, { password: string; user: UserInfo }>();

  constructor(text: string) {
    for (const [i, line] of text.split(/\r?\n/).entries()) {
      if (!line.trim() || line.trim().startsWith('#')) continue;
      const cells = parseCsvLine(line);
      if (cells.length < 3)
        throw new Error(
          `password file must have at least 3 columns (password, user name, user uid), found ${cells.length} on line ${i + 1}`,
        );
      const [password, username, uid, groups] = cells;
      this.users.set(username, {
        password,
        user: {
          username,
          uid,
          groups: groups
            ? groups
                .split(',')
                .map((g) => g.trim())
                .filter(Boolean)
            : [],
        },
      });
    }
  }

  static load(path: string): BasicAuthFile {
    return new BasicAuthFile(fs.readFileSync(path, 'utf8'));
  }

  /** The user when the name is known and the password matches exactly (upstream compares in constant time). */
  authenticatePassword(username: string, password: string): UserInfo | undefined {
    const entry = this.users.get(username);
    if (!entry) return undefined;
    const a = Buffer.from(entry.password);
    const b = Buffer.from(password);
    return a.length === b.length && timingSafeEqual(a, b) ? entry.user : undefined;
  }
}

function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((c) => c.trim());
}

export interface AuthenticatorOptions {
  tokenAuthenticators?: TokenAuthenticator[];
  /** --basic-auth-file: HTTP basic auth (releases before v1.19). Without it a Basic header is ignored. */
  basicAuth?: BasicAuthFile;
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
    // Upstream basicauth.Authenticator: a Basic header is judged only with --basic-auth-file, and
    // a wrong name or password is an error ("invalid username/password combination"), not anonymity.
    // v1.12 asks it before client certificates (pkg/kubeapiserver/authenticator/config.go).
    const basic =
      req.headers.authorization === undefined ? null : /^Basic\s+(\S+)\s*$/i.exec(req.headers.authorization);
    if (basic && this.options.basicAuth) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const user =
        colon < 0
          ? undefined
          : this.options.basicAuth.authenticatePassword(decoded.slice(0, colon), decoded.slice(colon + 1));
      if (!user) throw errors.unauthorized();
      return withAuthenticated(user);
    }
    if (socket.encrypted && socket.authorized) {
      const user = certificateUser(socket);
      if (user) return user;
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

/**
 * The user a verified client certificate names (CN, O as groups), read once per connection:
 * the certificate of a TLS connection never changes, and getPeerCertificate builds a new
 * object on each call (a large share of a kept-alive request's cost).
 */
const certificateUsers = new WeakMap<TLSSocket, UserInfo | null>();

function certificateUser(socket: TLSSocket): UserInfo | undefined {
  let user = certificateUsers.get(socket);
  if (user === undefined) {
    const subject = socket.getPeerCertificate()?.subject as unknown as Record<string, string | string[]> | undefined;
    const cn = subject?.CN;
    const o = subject?.O;
    const groups = o === undefined ? [] : Array.isArray(o) ? o : [o];
    user = cn ? withAuthenticated({ username: Array.isArray(cn) ? cn[0] : cn, groups }) : null;
    certificateUsers.set(socket, user);
  }
  return user ?? undefined;
}

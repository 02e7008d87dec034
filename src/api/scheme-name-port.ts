/**
 * The id a proxy subresource names: "name", "name:port" or "scheme:name:port", scheme http,
 * https or empty (k8s.io/apimachinery pkg/util/net SplitSchemeNamePort). Pods and services
 * proxies parse it; the hollow kubelet's pod-network stand-in reads the same form back.
 */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) [name, port] = parts;
  else if (parts.length === 3) [scheme, name, port] = parts;
  else return undefined;
  if (!name || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) return undefined;
  return { scheme, name, port };
}

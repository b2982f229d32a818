// Finds an address an issuer publishes in its metadata (jwks_uri, introspection_endpoint): RFC 8414 authorization
// server metadata, then OpenID discovery.
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';

/** The metadata addresses to try, in order: RFC 8414 inserts the well-known part before the issuer's path, OIDC appends it. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** The issuer's `field` (an address); the metadata must name the same issuer (RFC 8414 §3.3), or it is not used. */
export async function discoverIssuerEndpoint(
  issuer: string,
  field: 'jwks_uri' | 'introspection_endpoint',
): Promise<string> {
  for (const address of metadataUrls(issuer)) {
    let metadata: Record<string, unknown> | null;
    try {
      const response = await fetch(address, { headers: { accept: 'application/json' } });
      if (!response.ok) continue;
      metadata = (await response.json()) as typeof metadata;
    } catch {
      continue;
    }
    const value = metadata?.[field];
    if (metadata?.['issuer'] !== issuer || typeof value !== 'string') continue;
    return value;
  }
  throw new OAuthError(
    OAuthErrorCode.TemporarilyUnavailable,
    `no metadata of issuer ${issuer} names its ${field} (tried ${metadataUrls(issuer).join(', ')})`,
  );
}

/** The issuer's `jwks_uri`. */
export const discoverJwksUri = (issuer: string): Promise<string> =>
  discoverIssuerEndpoint(issuer, 'jwks_uri');

// Finds an issuer's JWKS URI in its metadata: RFC 8414 authorization server metadata, then OpenID discovery.
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

/** The issuer's `jwks_uri`; the metadata must name the same issuer (RFC 8414 §3.3), or it is not used. */
export async function discoverJwksUri(issuer: string): Promise<string> {
  for (const address of metadataUrls(issuer)) {
    let metadata: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const response = await fetch(address, { headers: { accept: 'application/json' } });
      if (!response.ok) continue;
      metadata = (await response.json()) as typeof metadata;
    } catch {
      continue;
    }
    if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== 'string') continue;
    return metadata.jwks_uri;
  }
  throw new OAuthError(
    OAuthErrorCode.TemporarilyUnavailable,
    `no metadata of issuer ${issuer} names its jwks_uri (tried ${metadataUrls(issuer).join(', ')})`,
  );
}

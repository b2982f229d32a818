// A real SDK Client connected to a host in memory (a 2025-era connection), so CLI commands see what clients see.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { ForesightHost } from '../create-host.js';
import { FORESIGHT_VERSION } from '../version.js';

export async function connectInMemoryClient(host: ForesightHost): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'foresight-cli', version: FORESIGHT_VERSION });
  await client.connect(clientSide);
  return client;
}

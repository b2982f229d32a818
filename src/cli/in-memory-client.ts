// A real SDK Client connected to a host session in memory, so CLI commands see exactly what clients see.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ForesightHost } from '../create-host.js';
import { FORESIGHT_VERSION } from '../version.js';

export async function connectInMemoryClient(host: ForesightHost): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await host.connect(serverSide);
  const client = new Client({ name: 'foresight-cli', version: FORESIGHT_VERSION });
  await client.connect(clientSide);
  return client;
}

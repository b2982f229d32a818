// The fixture resources: static text, static binary, the watched resource, and the test://template/{id}/data template.
import type {
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import { errors } from '../../contract/index.js';
import { RED_PIXEL_PNG_BASE64 } from './media.js';
import type { WatchedResource } from './watched-resource.js';

const STATIC_TEXT_URI = 'test://static-text';
const STATIC_BINARY_URI = 'test://static-binary';
export const DATA_TEMPLATE = 'test://template/{id}/data';
const DATA_TEMPLATE_PATTERN = /^test:\/\/template\/([^/?#]+)\/data$/;

const STATIC_RESOURCES: readonly Resource[] = [
  {
    uri: STATIC_TEXT_URI,
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A fixed text resource.',
    mimeType: 'text/plain',
  },
  {
    uri: STATIC_BINARY_URI,
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A fixed binary resource: a 1×1 red PNG.',
    mimeType: 'image/png',
  },
];

export const RESOURCE_TEMPLATES: readonly ResourceTemplate[] = [
  {
    uriTemplate: DATA_TEMPLATE,
    name: 'template',
    title: 'Resource Template',
    description: 'JSON data for any id: the id is substituted into the content.',
    mimeType: 'application/json',
  },
];

export function listResources(watched: WatchedResource): Resource[] {
  return [...STATIC_RESOURCES, watched.resource];
}

export function readResource(uri: string, watched: WatchedResource): ReadResourceResult {
  if (uri === STATIC_TEXT_URI) {
    return {
      contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    };
  }
  if (uri === STATIC_BINARY_URI)
    return { contents: [{ uri, mimeType: 'image/png', blob: RED_PIXEL_PNG_BASE64 }] };
  if (uri === watched.resource.uri) return watched.read();
  const id = templateId(uri);
  if (id === undefined) throw errors.resourceNotFound(uri);
  return {
    contents: [
      {
        uri,
        mimeType: 'application/json',
        text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
      },
    ],
  };
}

function templateId(uri: string): string | undefined {
  const encoded = DATA_TEMPLATE_PATTERN.exec(uri)?.[1];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

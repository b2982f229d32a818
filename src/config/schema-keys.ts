// The keys a zod schema allows at a key path: zod's unknown-key issue lists the strangers, not the allowed keys.
import type * as z from 'zod';
import type { KeyPath } from './key-path.js';

type Schema = z.core.$ZodType;

/** The keys of the table schema at `path`, or undefined when that is not a plain table schema. */
export function allowedKeysAt(schema: Schema, path: KeyPath): string[] | undefined {
  let current: Schema | undefined = schema;
  for (const segment of path) {
    current = current && childOf(unwrap(current), segment);
  }
  if (!current) return undefined;
  const table = unwrap(current)._zod.def;
  return table.type === 'object' ? Object.keys((table as z.core.$ZodObjectDef).shape) : undefined;
}

/** The schema under optional/default/transform wrappers (a transform's input side). */
function unwrap(schema: Schema): Schema {
  let current = schema;
  // Bounded: a lazy schema could return itself.
  for (let depth = 0; depth < 32; depth++) {
    const def = current._zod.def;
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'catch':
      case 'readonly':
        current = (def as z.core.$ZodOptionalDef).innerType;
        break;
      case 'pipe':
        current = (def as z.core.$ZodPipeDef).in;
        break;
      case 'lazy':
        current = (def as z.core.$ZodLazyDef).getter();
        break;
      default:
        return current;
    }
  }
  return current;
}

function childOf(schema: Schema, segment: PropertyKey): Schema | undefined {
  const def = schema._zod.def;
  switch (def.type) {
    case 'object': {
      const { shape, catchall } = def as z.core.$ZodObjectDef;
      return typeof segment === 'string' && Object.hasOwn(shape, segment) ? shape[segment] : catchall;
    }
    case 'record':
      return (def as z.core.$ZodRecordDef).valueType;
    case 'array':
      return typeof segment === 'number' ? (def as z.core.$ZodArrayDef).element : undefined;
    default:
      return undefined;
  }
}

// A bounded in-memory event store so Streamable HTTP clients can resume a stream with Last-Event-ID.
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

interface StoredEvent {
  streamId: string;
  message: JSONRPCMessage;
}

/**
 * Default: keeps the last 100 events of a session; older ones can no longer be replayed. A resume follows a
 * broken connection within moments, and each event holds a whole answer: at 1,000 a session, 25 busy 2025
 * clients kept some 300 MB of old answers alive (`npm run soak`).
 */
export function createMemoryEventStore(maxEvents = 100): EventStore {
  const events = new Map<string, StoredEvent>();
  let counter = 0;
  return {
    async storeEvent(streamId, message) {
      counter += 1;
      // Zero-padded so ids sort in the order they were stored.
      const eventId = `${streamId}_${String(counter).padStart(12, '0')}`;
      events.set(eventId, { streamId, message });
      if (events.size > maxEvents) {
        const oldest = events.keys().next().value;
        if (oldest !== undefined) events.delete(oldest);
      }
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (!last) return '';
      let after = false;
      for (const [eventId, event] of events) {
        if (eventId === lastEventId) {
          after = true;
          continue;
        }
        // Priming events carry an empty message: they mark a resume point and are not replayed.
        const priming = Object.keys(event.message).length === 0;
        if (after && !priming && event.streamId === last.streamId) await send(eventId, event.message);
      }
      return last.streamId;
    },
  };
}

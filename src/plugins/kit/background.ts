// A provider's start and shutdown when its work runs in the background (metadata loads, the health probe).

/** Something a provider starts without waiting for it and stops, awaiting what is in flight, at shutdown. */
export interface BackgroundWork {
  start(): void;
  stop(): Promise<void>;
}

/** `start` starts each part and returns at once; `shutdown` stops them all together. */
export function inBackground(...parts: BackgroundWork[]): {
  start: () => Promise<void>;
  shutdown: () => Promise<void>;
} {
  return {
    start: async () => {
      for (const part of parts) part.start();
    },
    shutdown: async () => {
      await Promise.all(parts.map((part) => part.stop()));
    },
  };
}

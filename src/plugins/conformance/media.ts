// Tiny binary fixtures, base64-encoded, for the image, audio and blob checks of the conformance suite.

/** A 1×1 red pixel: 8-bit RGB PNG, 69 bytes. */
export const RED_PIXEL_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC';

/** One millisecond of silence: 8 kHz mono 16-bit PCM WAV (8 samples), 60 bytes. */
export const SILENT_WAV_BASE64 =
  'UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA';

// Shared by the JavaScript unit tests (node:test, no npm packages): the browser's modules,
// imported from src/spades/web/js, and the fixtures tests/web/jskit.py wrote for this run
// from the Python engine (the folder in SPADES_JS_FIXTURES). Run them with pytest
// (tests/web/test_js_units.py), which writes the fixtures first.

import { webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

// Node 18 has no global Web Crypto (the browser's crypto.subtle and getRandomValues).
if (!globalThis.crypto) globalThis.crypto = webcrypto;

const WEB = new URL("../../src/spades/web/js/", import.meta.url);

/** The browser's module ``name`` ("cards.js"). */
export function web(name) {
  return import(new URL(name, WEB).href);
}

/** The fixture ``name`` ("vectors") as jskit.py wrote it. */
export function fixture(name) {
  const folder = process.env.SPADES_JS_FIXTURES;
  if (!folder) {
    throw new Error("SPADES_JS_FIXTURES is not set: run these tests with pytest " +
      "(tests/web/test_js_units.py), which makes the fixtures from the engine");
  }
  return JSON.parse(readFileSync(join(folder, `${name}.json`), "utf-8"));
}

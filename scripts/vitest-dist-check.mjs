// Vitest globalSetup of the projects that import dist/: fail at once, with the fix, when the
// build is missing or older than src/, instead of testing stale code or failing to resolve.
import { assertDistBuilt } from './package-entries.mjs';

export default function setup() {
  assertDistBuilt();
}

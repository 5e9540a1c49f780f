const marker = Symbol.for('tool-search-layer.error');

/** The one error family of the library: invalid options, invalid calls by the host, and store failures. */
export class ToolSearchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`[tool-search-layer] ${message}`, options);
    this.name = 'ToolSearchError';
    // A registered symbol, so errors from another copy of this package in the same bundle are recognised too.
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for any ToolSearchError, even one thrown by a duplicated copy of the package. */
  static isInstance(error: unknown): error is ToolSearchError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

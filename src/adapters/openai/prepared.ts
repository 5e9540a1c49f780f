// The type of a request body after a prepare helper, kept apart so both APIs' helpers state it the same way.

/**
 * The caller's body with its tools replaced by a mutable array of `T`, which admits the tools the layer adds
 * (`search_tools`, `call_tool`, `tool_search`, namespaces); every other field keeps its type, so a literal
 * `stream: true` still selects the client's streaming overload.
 */
export type PreparedBody<B, T> = B extends { readonly tools: readonly unknown[] }
  ? Omit<B, 'tools'> & { tools: T[] }
  : Omit<B, 'tools'> & { tools?: T[] };

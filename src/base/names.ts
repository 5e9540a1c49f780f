// The layer's own tool names, in a file of their own so that every module can import them without a cycle.

/** The name of the meta-tool the model calls to find tools. */
export const SEARCH_TOOL_NAME = 'search_tools';

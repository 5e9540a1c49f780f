// A scope is any non-empty string a host picks (an app, a tenant), and its keys are `learn:<scope>` followed by
// suffixes that start with ':'. A ':' in a scope could therefore name another scope's key (scope "a:m0"'s head is
// scope "a"'s memory head), so a ':' and the '%' that escapes it are written %3A and %25: every other scope's keys
// are what they always were, and nothing stored needs moving.

/** The start of every key a scope has in the store's shared space. */
export const scopeKey = (scope: string): string =>
  `learn:${scope.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'))}`;

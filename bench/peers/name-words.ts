// Tool names are identifiers; BM25 peers only match them once they are split into words.

/** "getHTTPResponse_v2.list-all" -> "get HTTP Response v2 list all" (split on _ - . white space and camelCase). */
export function nameWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .join(' ');
}

// The eight tools the store suites discover from: more than maxDirectTools would send whole, so searches discover.
import type { Tool } from 'tool-search-layer';

/** Eight small tools, each found by its own words. */
export const storeTools: readonly Tool[] = [
  'send_email',
  'read_inbox',
  'get_weather',
  'get_forecast',
  'create_event',
  'list_events',
  'translate_text',
  'convert_currency',
].map((name) => ({ name, description: name.replace('_', ' '), parameters: { type: 'object', properties: {} } }));

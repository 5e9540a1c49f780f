// The event log: what the layer reports through `onEvent` (searches, discoveries, evictions, refused calls, store
// fallbacks and recoveries), newest first, one line each.

import type { ToolSearchEvent } from 'tool-search-layer';
import { h } from './view.ts';

const MAX_SHOWN = 200;
let count = 0;

/** One line of text for an event: its type, then its fields but the session id. */
function eventText(event: ToolSearchEvent): string {
  const fields = Object.entries(event)
    .filter(([key]) => key !== 'type' && key !== 'sessionId')
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') || '—' : String(value)}`);
  return fields.join(' · ');
}

/** Appends an event to the log on the page (the layer calls this; it must never throw back into the layer). */
export function logEvent(event: ToolSearchEvent): void {
  const list = document.getElementById('events');
  if (!list) return;
  count++;
  const session = 'sessionId' in event ? ` [${event.sessionId}]` : '';
  list.prepend(
    h(
      'li',
      { class: `event ${event.type}`, 'data-type': event.type },
      h('span', { class: 'event-n' }, `#${count}`),
      h('b', {}, `${event.type}${session}`),
      ' ',
      eventText(event),
    ),
  );
  while (list.children.length > MAX_SHOWN) list.lastElementChild?.remove();
}

/** Empties the log. */
export function clearEvents(): void {
  document.getElementById('events')?.replaceChildren();
  count = 0;
}

// The scripted session's controls: the steps with the one to come marked, and play, pause, one step, start over.
import { app, player } from './app.ts';
import { scriptSteps } from './script.ts';
import { act, byId, h } from './view.ts';

/** Milliseconds between rounds while playing: long enough to read what changed. */
const PLAY_DELAY_MS = Number(new URLSearchParams(location.search).get('delay') ?? 1400);

/** Marks the steps done, the next one, and which buttons make sense now. */
export function showScript(): void {
  const steps = scriptSteps(app.plan);
  byId('script-steps').replaceChildren(
    ...steps.map((step, i) => {
      const state = i < player.next ? 'done' : i === player.next ? 'next' : 'later';
      const label = state === 'done' ? 'done' : state === 'next' ? 'next' : '';
      return h(
        'li',
        { class: `step ${state}`, ...(state === 'next' && { 'aria-current': 'step' }) },
        step.title,
        label && h('span', { class: 'step-state' }, ` (${label})`),
      );
    }),
  );
  byId<HTMLButtonElement>('script-play').disabled = player.playing || player.done;
  byId<HTMLButtonElement>('script-pause').disabled = !player.playing;
  byId<HTMLButtonElement>('script-step').disabled = player.playing || player.done;
  byId('script-play').textContent = player.next > 0 && !player.done ? 'Resume' : 'Play';
}

/** Wires the four buttons. */
export function wireScript(): void {
  byId('script-play').addEventListener('click', () => void act(() => player.play(PLAY_DELAY_MS, showScript)));
  byId('script-pause').addEventListener('click', () => {
    player.pause();
    showScript();
  });
  byId('script-step').addEventListener('click', () =>
    act(async () => {
      await player.step();
      showScript();
    }),
  );
  byId('script-restart').addEventListener('click', () => byId('clear-session').click());
}

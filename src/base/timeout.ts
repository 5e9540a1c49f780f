// One deadline for a promise, shared by the store guards and the ranker hook.

/** Rejects with `message` when `work` has not settled within `ms` (0: no deadline); the work itself goes on. */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  if (ms === 0) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Runs a store call with a deadline; a method that throws synchronously rejects like an async one. */
export function callWithTimeout<T>(run: () => Promise<T>, ms: number, message: string): Promise<T> {
  let work: Promise<T>;
  try {
    work = Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
  return withTimeout(work, ms, message);
}

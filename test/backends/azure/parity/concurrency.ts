/** At most `limit` of the wrapped tasks run at once; the others wait their turn (first come, first served). */
export function boundedConcurrency(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    // A finishing task hands its slot straight to the next waiter, so no newcomer can slip in between.
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next !== undefined) next();
      else running -= 1;
    }
  };
}

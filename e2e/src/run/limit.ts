// Runs at most `n` tasks at once, in the order they were given (scenarios and campaign seeds share 2 cores).
export function createLimit(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: Array<() => void> = [];
  const next = (): void => {
    if (active >= n) return;
    const start = queue.shift();
    if (start === undefined) return;
    active += 1;
    start();
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        task().then(resolve, reject).finally(() => {
          active -= 1;
          next();
        });
      });
      next();
    });
}

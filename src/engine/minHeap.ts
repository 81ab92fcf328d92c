/**
 * A binary min-heap under a comparison: push and pop in O(log n), peek in O(1). Items that compare
 * equal come out in no particular order: every user breaks ties itself or does not depend on them.
 */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => number) {}

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.less(items[i] as T, items[parent] as T) >= 0) break;
      [items[i], items[parent]] = [items[parent] as T, items[i] as T];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    // Empty now (or already): nothing to put back at the root.
    if (items.length === 0) return top;
    items[0] = last as T;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && this.less(items[l] as T, items[m] as T) < 0) m = l;
      if (r < items.length && this.less(items[r] as T, items[m] as T) < 0) m = r;
      if (m === i) break;
      [items[i], items[m]] = [items[m] as T, items[i] as T];
      i = m;
    }
    return top;
  }
}

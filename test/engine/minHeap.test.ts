/**
 * `MinHeap` (src/engine/minHeap.ts), under the ready queue, the in-flight set and the simulated fleet's
 * operation endings: whatever the order things are pushed in and popped between, each pop gives the
 * least item left under the comparison, and an empty heap gives undefined.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MinHeap } from "../../src/engine/minHeap";

const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

describe("MinHeap", () => {
  it("pops the least item left, with pushes and pops interleaved (null = pop)", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: -50, max: 50 }), { freq: 3 }), { maxLength: 80 }), (steps) => {
        const heap = new MinHeap<number>((a, b) => a - b);
        const model: number[] = [];
        for (const step of steps) {
          if (step === null) {
            model.sort((a, b) => a - b);
            expect(heap.pop()).toBe(model.shift());
          } else {
            heap.push(step);
            model.push(step);
          }
          expect(heap.peek()).toBe(model.length === 0 ? undefined : Math.min(...model));
        }
        const rest: number[] = [];
        for (let x = heap.pop(); x !== undefined; x = heap.pop()) rest.push(x);
        expect(rest).toEqual(model.sort((a, b) => a - b));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a root replaced by the last item goes down past a smaller right child", () => {
    const heap = new MinHeap<number>((a, b) => a - b);
    for (const x of [1, 5, 2, 6, 7, 3, 4]) heap.push(x);
    expect([heap.pop(), heap.pop(), heap.pop(), heap.pop(), heap.pop(), heap.pop(), heap.pop(), heap.pop()]).toEqual([1, 2, 3, 4, 5, 6, 7, undefined]);
  });

  it("an emptied heap takes items again", () => {
    const heap = new MinHeap<string>((a, b) => a.localeCompare(b));
    heap.push("b");
    expect(heap.pop()).toBe("b");
    expect(heap.pop()).toBeUndefined();
    heap.push("c");
    heap.push("a");
    expect(heap.peek()).toBe("a");
    expect([heap.pop(), heap.pop(), heap.pop()]).toEqual(["a", "c", undefined]);
  });
});

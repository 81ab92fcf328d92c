/**
 * docs/rules.md §3.4 "already at target" over clusters whose node pools disagree: one pool on the
 * target version and another behind it, or one pool on the target image and another behind it. Such
 * a member is not at target; it is upgraded, and only what is behind moves. Issue 34: with single-pool
 * clusters only, "every pool" and "some pool" could not be told apart.
 */
import { describe, expect, it } from "vitest";
import { FULL_TO_1_32, IMAGE, member, scenario, simulate } from "./helpers";

const NODE_IMAGE_ONLY = "{upgrade: {type: NodeImageOnly}, nodeImageSelection: {type: Latest}}";

describe("a cluster whose node pools are apart", () => {
  it("Full: a pool behind the target version while the other pool and the control plane are on it is upgraded, not Skipped", async () => {
    const out = await simulate(
      scenario({
        members: [
          member("pools-apart", {
            version: "1.32.0",
            pools: [
              { name: "system", version: "1.32.0", image: IMAGE.NOV },
              { name: "user", version: "1.31.2", image: IMAGE.NOV },
            ],
          }),
        ],
        update: FULL_TO_1_32(),
      }),
    );
    expect(out.member("pools-apart").status).toEqual({ state: "Completed", startTime: "2026-12-05T00:00:00Z", completedTime: "2026-12-05T00:10:00Z" });
    expect(out.ops("pools-apart").map((o) => [o.kind, o.result])).toEqual([["Full", "Succeeded"]]);
    expect(out.cluster("pools-apart").nodePools.map((p) => [p.name, p.orchestratorVersion])).toEqual([
      ["system", "1.32.0"],
      ["user", "1.32.0"],
    ]);
  });

  it("Full: every version on target but one pool's image behind: upgraded, and only that pool's image moves", async () => {
    const out = await simulate(
      scenario({
        members: [
          member("images-apart", {
            version: "1.32.0",
            pools: [
              { name: "system", image: IMAGE.NOV },
              { name: "user", image: IMAGE.OCT },
            ],
          }),
        ],
        update: FULL_TO_1_32(),
      }),
    );
    expect(out.member("images-apart").status.state).toBe("Completed");
    expect(out.member("images-apart").message).toBeUndefined();
    expect(out.cluster("images-apart").nodePools.map((p) => [p.name, p.nodeImageVersion])).toEqual([
      ["system", IMAGE.NOV],
      ["user", IMAGE.NOV],
    ]);
  });

  it("Full: a cluster with every pool and image on target is Skipped as at target", async () => {
    const out = await simulate(
      scenario({
        members: [
          member("all-there", {
            version: "1.32.0",
            pools: [
              { name: "system", image: IMAGE.NOV },
              { name: "user", image: IMAGE.NOV },
            ],
          }),
        ],
        update: FULL_TO_1_32(),
      }),
    );
    expect(out.member("all-there").status).toEqual({ state: "Skipped", completedTime: "2026-12-05T00:00:00Z" });
    expect(out.member("all-there").message).toBe("Already at target: control plane and every node pool run Kubernetes 1.32.0 with the target node images.");
    expect(out.ops("all-there")).toEqual([]);
  });

  it("NodeImageOnly: one pool on the newest image and one behind: the member is re-imaged, not Skipped", async () => {
    const out = await simulate(
      scenario({
        members: [
          member("images-apart", {
            pools: [
              { name: "system", image: IMAGE.NOV },
              { name: "user", image: IMAGE.OCT },
            ],
          }),
        ],
        update: NODE_IMAGE_ONLY,
      }),
    );
    expect(out.member("images-apart").status.state).toBe("Completed");
    expect(out.ops("images-apart").map((o) => o.kind)).toEqual(["NodeImageOnly"]);
    expect(out.cluster("images-apart").nodePools.map((p) => p.nodeImageVersion)).toEqual([IMAGE.NOV, IMAGE.NOV]);
  });
});

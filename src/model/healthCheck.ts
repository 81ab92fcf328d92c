/**
 * Issue 5 health checks: an optional probe per member, run after its upgrade reports success and
 * the built-in checks (versions, images, provisioning state) pass. docs/behaviour.md "Health checks".
 */
import { z } from "zod";
import { orRequired } from "./common";

export const HealthCheckSchema = z.strictObject({
  /** HTTP(S) GET; any 2xx answer is healthy. */
  url: z.url({ protocol: /^https?$/, error: orRequired("must be an http or https URL") }),
  /** Seconds to let the cluster settle after the upgrade before the first probe; default 60. */
  settleSeconds: z.number({ error: "must be a number of seconds" }).int("must be a whole number of seconds").min(0, "must not be negative").max(86_400, "must be at most 86400").default(60),
  /** Probes after a failed one before the member fails; default 3. */
  retries: z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must not be negative").max(20, "must be at most 20").default(3),
  /** Seconds between probes; default 30. */
  intervalSeconds: z.number({ error: "must be a number of seconds" }).int("must be a whole number of seconds").min(1, "must be at least 1").max(3_600, "must be at most 3600").default(30),
});
export type HealthCheck = z.infer<typeof HealthCheckSchema>;

/**
 * Issue 5 health checks: an optional probe per member, run after its upgrade reports success and
 * the built-in checks (versions, images, provisioning state) pass. docs/behaviour.md "Health checks".
 */
import { z } from "zod";
import { orRequired } from "./values";

export const HealthCheckSchema = z
  .strictObject({
    url: z.url({ protocol: /^https?$/, error: orRequired("must be an http or https URL") }).meta({
      description:
        "HTTP(S) URL, probed with GET from where `pulumi up` runs; any 2xx answer is healthy. It may carry a token: statuses, events and logs show it without its query and credentials, the run's journal and `engineState` leave it out, and the provider plugin keeps it secret in the state (in TypeScript, pass `pulumi.secret(...)`).",
      secret: true,
    }),
    settleSeconds: z
      .number({ error: "must be a number of seconds" })
      .int("must be a whole number of seconds")
      .min(0, "must not be negative")
      .max(86_400, "must be at most 86400")
      .default(60)
      .meta({ description: "Seconds to let the cluster settle after its upgrade before the first probe; default 60." }),
    retries: z
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must not be negative")
      .max(20, "must be at most 20")
      .default(3)
      .meta({ description: "Probes after a failed one before the member fails; default 3." }),
    intervalSeconds: z
      .number({ error: "must be a number of seconds" })
      .int("must be a whole number of seconds")
      .min(1, "must be at least 1")
      .max(3_600, "must be at most 3600")
      .default(30)
      .meta({ description: "Seconds between probes; default 30." }),
  })
  .meta({
    objectType: {
      name: "HealthCheck",
      description: "A probe that must answer 2xx after the member's upgrade before the member counts as Completed. Probed from where `pulumi up` runs.",
    },
  });
export type HealthCheck = z.infer<typeof HealthCheckSchema>;

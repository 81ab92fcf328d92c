/**
 * An ARM error of the Fleet Manager client, in one line: `<code>: <message>` (ARM's error body), never a
 * token or header. A module of its own, without the Azure SDK, so that whoever only tells errors
 * apart (`src/drivers/refusal.ts`) does not load it.
 */
export class FleetRequestError extends Error {
  constructor(
    readonly statusCode: number | undefined,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "FleetRequestError";
  }
}

/**
 * What a region offers, as the engine needs it (`RegionOffer`): the Kubernetes versions ARM lists for
 * the location, and the node images it lists (`locations/{location}/nodeImageVersions`, ARM's
 * ContainerService_ListNodeImageVersions, a preview API the SDK does not wrap). The full image list
 * matters for Consistent and Custom: a pick older than the region's newest image is offered there, and
 * the upgrade then moves the pool at or past it (ARM moves images only to the newest).
 *
 * Where the image list is not served (an ARM endpoint without the preview API), the newest image per
 * family is read from one node pool's upgrade profile per family and region instead: one read per
 * family each time the engine reads the region's offer (once per reconcile pass), not one per pool at
 * every cluster read.
 */
import type { ContainerServiceClient, ManagedCluster } from "@azure/arm-containerservice";
import { createDefaultHttpClient, createPipelineRequest, type HttpClient } from "@azure/core-rest-pipeline";
import { BackendError, type RegionOffer } from "../../engine/backend";
import { compareImageVersions, imageFamily } from "../../model/nodeImage";
import type { ManagedClusterId } from "./armIds";

/** The api-version ARM serves the node image list under (shared/fixtures/arm/NodeImageVersions_List.json). */
export const NODE_IMAGE_VERSIONS_API = "2026-06-02-preview";
export const AZURE_PUBLIC_CLOUD = "https://management.azure.com";

/** A node pool whose upgrade profile tells the newest image of its family in its region. */
interface ImageSource {
  id: ManagedClusterId;
  pool: string;
}

export interface RegionOfferSource {
  /** The client of any subscription read so far, and that subscription. */
  anyClient(): { client: ContainerServiceClient; subscriptionId: string } | undefined;
  clientOf(id: ManagedClusterId): ContainerServiceClient;
  /** ARM errors as `BackendError`s. */
  call<T>(request: () => Promise<T>): Promise<T>;
  endpoint: string;
}

export class RegionOffers {
  private readonly http: HttpClient = createDefaultHttpClient();
  /** False once ARM answered that it does not serve the node image list. */
  private imageListServed = true;
  /** Latest node image per family seen in each region (upgrade-profile path). */
  private readonly latestImages = new Map<string, Map<string, string>>();
  /** Per region, per image family: the pool of that family read last. */
  private readonly imageSources = new Map<string, Map<string, ImageSource>>();

  constructor(private readonly source: RegionOfferSource) {}

  /** Remember, per image family in the region, a pool of that family to read the newest image from. */
  noteCluster(id: ManagedClusterId, cluster: ManagedCluster, region: string): void {
    const sources = this.imageSources.get(region) ?? new Map<string, ImageSource>();
    this.imageSources.set(region, sources);
    for (const pool of cluster.agentPoolProfiles ?? []) sources.set(imageFamily(pool.nodeImageVersion ?? ""), { id, pool: pool.name });
  }

  async offer(region: string): Promise<RegionOffer> {
    const any = this.source.anyClient();
    if (any === undefined) throw new BackendError("NotReady", "no cluster has been read yet, so no subscription is known to list versions with");
    const listed = await this.source.call(() => any.client.managedClusters.listKubernetesVersions(region));
    const kubernetesVersions = (listed.values ?? []).flatMap((minor) => Object.keys(minor.patchVersions ?? {})).map((version) => ({ version }));
    const images = (this.imageListServed ? await this.listNodeImages(any.client, any.subscriptionId, region) : undefined) ?? (await this.newestImagesFromProfiles(region));
    return { kubernetesVersions, nodeImages: images.map((version) => ({ version })) };
  }

  /** Every image the region offers now, or undefined when ARM does not serve the list. */
  private async listNodeImages(client: ContainerServiceClient, subscriptionId: string, region: string): Promise<string[] | undefined> {
    const versions: string[] = [];
    let url: string | undefined =
      `${this.source.endpoint}/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.ContainerService/locations/${encodeURIComponent(region)}/nodeImageVersions?api-version=${NODE_IMAGE_VERSIONS_API}`;
    while (url !== undefined) {
      const response = await this.source.call(() => client.pipeline.sendRequest(this.http, createPipelineRequest({ url: url as string, method: "GET" })));
      if (response.status === 400 || response.status === 404) {
        // No such API here (an older ARM, a sovereign cloud): fall back to the upgrade profiles for good.
        this.imageListServed = false;
        return undefined;
      }
      const body = parseBody(response.bodyAsText);
      if (response.status !== 200) {
        throw new BackendError(body.error?.code ?? "ArmRequestFailed", body.error?.message ?? `listing the node images of ${region} answered HTTP ${response.status}`);
      }
      for (const image of body.value ?? []) if (typeof image.fullName === "string") versions.push(image.fullName);
      url = typeof body.nextLink === "string" ? body.nextLink : undefined;
    }
    return versions;
  }

  /**
   * The newest image per family in the region, from the upgrade profile of one pool per family (the one
   * read last). A source gone meanwhile (404) is dropped; what was learned from it stays.
   */
  private async newestImagesFromProfiles(region: string): Promise<string[]> {
    const known = this.latestImages.get(region) ?? new Map<string, string>();
    this.latestImages.set(region, known);
    const sources = this.imageSources.get(region) ?? new Map<string, ImageSource>();
    for (const [key, { id, pool }] of [...sources]) {
      let latest: string | undefined;
      try {
        latest = (await this.source.call(() => this.source.clientOf(id).agentPools.getUpgradeProfile(id.resourceGroup, id.name, pool))).latestNodeImageVersion;
      } catch (e) {
        if (e instanceof BackendError && (e.code === "NotFound" || e.code === "ResourceNotFound")) {
          sources.delete(key);
          continue;
        }
        throw e;
      }
      if (latest === undefined) continue;
      const family = imageFamily(latest);
      const seen = known.get(family);
      if (seen === undefined || compareImageVersions(latest, seen) > 0) known.set(family, latest);
    }
    return [...known.values()];
  }
}

interface NodeImageList {
  value?: Array<{ fullName?: unknown }>;
  nextLink?: string | null;
  error?: { code?: string; message?: string };
}

function parseBody(text: string | null | undefined): NodeImageList {
  if (text === undefined || text === null || text === "") return {};
  try {
    return JSON.parse(text) as NodeImageList;
  } catch {
    return {};
  }
}

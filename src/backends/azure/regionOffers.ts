/**
 * What a region offers, as the engine needs it (`RegionOffer`): the Kubernetes versions ARM lists for
 * the location, and the node images a pool there can be brought to — at or past.
 *
 * ARM moves a node image only forward, to the newest image of the pool's family in the region, and
 * lists only that newest image per family (`locations/{location}/nodeImageVersions`, a preview API
 * the SDK does not wrap; where it is not served, one pool's upgrade profile per family says the same).
 * So any older version of a family is reachable in a region — the upgrade goes past it — and the offer
 * lists, per family: the region's newest image; every other region's newest that is older (so that
 * Consistent, intersecting the regions' offers, picks the newest image every region reaches, as it does
 * in process); and the run's Custom versions that are not newer (they are floors, not pins). A member
 * whose region's newest is older than the selected image finds it not offered: Pending until it is.
 *
 * A region's images are read each time the engine reads its offer (once per reconcile pass); another
 * region's, once, the first time an offer needs them.
 */
import type { ContainerServiceClient, ManagedCluster } from "@azure/arm-containerservice";
import { createDefaultHttpClient, createPipelineRequest, type HttpClient } from "@azure/core-rest-pipeline";
import { BackendError, type RegionOffer } from "../../engine/backend";
import { compareImageVersions, imageFamily } from "../../model/nodeImage";
import type { ManagedClusterId } from "./armIds";

/** The api-version ARM serves the node image list under (the AKS REST specs' example NodeImageVersions_List.json). */
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
  /** Per region, per image family: the newest image there, as last read. */
  private readonly newest = new Map<string, Map<string, string>>();
  /** Per region, per image family: the pool of that family read last (for the upgrade-profile path). */
  private readonly imageSources = new Map<string, Map<string, ImageSource>>();

  constructor(
    private readonly source: RegionOfferSource,
    /** The run's Custom node image versions (offered where the region's newest of the family is at or past them). */
    private readonly customVersions: readonly string[] = [],
  ) {}

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
    const kubernetesVersions = (listed.values ?? []).flatMap((minor) => Object.keys(minor.patchVersions ?? {}).map((version) => (minor.isPreview === true ? { version, isPreview: true as const } : { version })));
    await this.learn(region, any);
    for (const other of this.imageSources.keys()) if (!this.newest.has(other)) await this.learn(other, any);
    return { kubernetesVersions, nodeImages: this.reachable(region).map((version) => ({ version })) };
  }

  /** The images a pool in `region` can be brought to, at or past: see the module comment. */
  private reachable(region: string): string[] {
    const here = this.newest.get(region) ?? new Map<string, string>();
    const out = new Set(here.values());
    const candidates = [...[...this.newest.values()].flatMap((byFamily) => [...byFamily.values()]), ...this.customVersions];
    for (const version of candidates) {
      const newestHere = here.get(imageFamily(version));
      if (newestHere !== undefined && compareImageVersions(version, newestHere) <= 0) out.add(version);
    }
    return [...out].sort((a, b) => imageFamily(a).localeCompare(imageFamily(b)) || compareImageVersions(a, b));
  }

  private async learn(region: string, any: { client: ContainerServiceClient; subscriptionId: string }): Promise<void> {
    const listed = this.imageListServed ? await this.listNodeImages(any.client, any.subscriptionId, region) : undefined;
    const images = listed ?? (await this.newestImagesFromProfiles(region));
    const byFamily = new Map<string, string>();
    for (const image of images) {
      const seen = byFamily.get(imageFamily(image));
      if (seen === undefined || compareImageVersions(image, seen) > 0) byFamily.set(imageFamily(image), image);
    }
    this.newest.set(region, byFamily);
  }

  /** The region's node image list (the newest image per family), or undefined when ARM does not serve it. */
  private async listNodeImages(client: ContainerServiceClient, subscriptionId: string, region: string): Promise<string[] | undefined> {
    const versions: string[] = [];
    let url: string | undefined =
      `${this.source.endpoint}/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.ContainerService/locations/${encodeURIComponent(region)}/nodeImageVersions?api-version=${NODE_IMAGE_VERSIONS_API}`;
    while (url !== undefined) {
      const response = await this.source.call(() => client.pipeline.sendRequest(this.http, createPipelineRequest({ url: url as string, method: "GET" })));
      if (response.status === 400 || response.status === 403 || response.status === 404) {
        // Not served here (an older ARM, a sovereign cloud) or not granted: use the upgrade profiles from now on.
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
    const known = new Map(this.newest.get(region) ?? []);
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
      const seen = known.get(imageFamily(latest));
      if (seen === undefined || compareImageVersions(latest, seen) > 0) known.set(imageFamily(latest), latest);
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

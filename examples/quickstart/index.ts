/**
 * Quickstart: two settings of an existing account, managed by Pulumi.
 *
 *   npm install && npm run build
 *   pulumi stack init dev
 *   pulumi config set cdnstream:baseUrl https://…   # the API's address, before /v2
 *   export CDNSTREAM_API_KEY=…                     # or: pulumi config set --secret cdnstream:apiKey …
 *   pulumi up
 *
 * The ids below exist in the bundled emulator's account (`npm run emulator` in the
 * pulumi-cdnstream repository); use your own zone and stream ids against the real API.
 */
import * as cdn from "pulumi-cdnstream";

// Exporting a function (rather than declaring resources at the top level) lets tools that run
// the program several times in one process, such as `cdnstream drift`, get every resource each time.
export = async () => {
  // The custom domains and transcode webhook of HTTP push zone 101 (POST /v2/zones/http/push/{zoneid}). The zone itself
  // already exists: Pulumi manages only the settings declared here, and `pulumi destroy` leaves
  // them as they are. Domains are compared as a set, so reordering them is no change.
  const assets = new cdn.PushZoneSettings("assets", {
    zoneId: 101,
    customDomains: ["assets.northwind.example", "static.northwind.example"],
    transcodeWebhook: "https://hooks.northwind.example/transcoded",
  });

  // Keep push stream 3001 enabled (POST /v2/streams/push/{streamid}/status). If someone disables it in the dashboard,
  // `cdnstream drift` reports `disabled: false -> true` and `pulumi up --refresh` enables it again.
  const mainEvent = new cdn.StreamStatus("main-event", { streamKind: "push", streamId: 3001, disabled: false });

  // Stack outputs (`pulumi stack output`).
  return {
    // Point each custom domain's CNAME record here; the API warns until they do.
    cnameTarget: assets.fqdn,
    customDomains: assets.customDomainFqdns,
    warnings: assets.warnings,
    mainEventHls: mainEvent.playbackUrls.hls,
  };
};

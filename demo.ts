/**
 * The demo stack's program (see Pulumi.yaml). It reports where it would deploy; the resources
 * it declares arrive with the resource kinds.
 */
import * as pulumi from "@pulumi/pulumi";

export = async () => {
  const config = new pulumi.Config("cdnstream");
  return {
    project: pulumi.getProject(),
    stack: pulumi.getStack(),
    baseUrl: config.get("baseUrl") ?? process.env.CDNSTREAM_BASE_URL ?? "not set",
  };
};

// Pulumi provider for the CDN, live-streaming, ad-insertion and ad-manager API: declarative settings, exact previews, drift detection.
package cdnstream

/** Redaction replaces a secret where it stands as a whole token, never inside a URN or a longer name. */
import { containsSecret, REDACTED, redactCause, redactText, redactValue } from "../../client/core/redact";

// The demo's case: the passphrase equals the project name.
const PROJECT = "cdnstream-demo";
const URN = `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic:Resource$cdnstream:StreamStatus::main-event`;

describe("redactText", () => {
  it("leaves a URN whole when a secret equals the project name (the demo's passphrase)", () => {
    expect(redactText(URN, [PROJECT])).toBe(URN);
    expect(redactText(`drift in ${URN}: disabled`, [PROJECT])).toBe(`drift in ${URN}: disabled`);
    expect(redactText(JSON.stringify({ urn: URN, name: "main-event" }), [PROJECT])).toBe(
      JSON.stringify({ urn: URN, name: "main-event" }),
    );
  });

  it("leaves a longer name that contains the secret", () => {
    for (const text of [
      `${PROJECT}-zone`,
      `my-${PROJECT}`,
      `${PROJECT}.example.com`,
      `x${PROJECT}`,
      `${PROJECT}_2`,
      `Pulumi.${PROJECT}.yaml`,
    ])
      expect(redactText(text, [PROJECT])).toBe(text);
  });

  it("replaces the secret wherever it stands alone: bounded by non-word characters or the ends", () => {
    expect(redactText(PROJECT, [PROJECT])).toBe(REDACTED);
    expect(redactText(`passphrase ${PROJECT}`, [PROJECT])).toBe(`passphrase ${REDACTED}`);
    expect(redactText(`passphrase ${PROJECT}.`, [PROJECT])).toBe(`passphrase ${REDACTED}.`);
    expect(redactText(`"${PROJECT}"`, [PROJECT])).toBe(`"${REDACTED}"`);
    expect(redactText(`key=${PROJECT}&x=1`, [PROJECT])).toBe(`key=${REDACTED}&x=1`);
    expect(redactText(`/v2/${PROJECT}/x`, [PROJECT])).toBe(`/v2/${REDACTED}/x`);
    expect(redactText(`X-API-Key: ${PROJECT}\n`, [PROJECT])).toBe(`X-API-Key: ${REDACTED}\n`);
    // A URN and a lone secret in one line: only the lone one goes.
    expect(redactText(`${URN} with key ${PROJECT}`, [PROJECT])).toBe(`${URN} with key ${REDACTED}`);
  });

  it("replaces every occurrence, a longer secret before one it contains, and ignores secrets under 4 characters", () => {
    const key = "k-5f4e3d2c1b";
    expect(redactText(`${key} and ${key}`, [key])).toBe(`${REDACTED} and ${REDACTED}`);
    expect(redactText("abcd abcd-efgh", ["abcd", "abcd-efgh"])).toBe(`${REDACTED} ${REDACTED}`);
    expect(redactText("abc", ["abc"])).toBe("abc");
  });

  it("deep values and causes follow the same rule", () => {
    expect(redactValue({ urn: URN, note: [`pass ${PROJECT}`] }, [PROJECT])).toEqual({
      urn: URN,
      note: [`pass ${REDACTED}`],
    });
    const clean = new Error(`failed on ${URN}`);
    expect(redactCause(clean, [PROJECT])).toBe(clean);
    const leaking = new Error(`bad passphrase ${PROJECT}`);
    expect((redactCause(leaking, [PROJECT]) as Error).message).toBe(`bad passphrase ${REDACTED}`);
    expect(containsSecret(URN, [PROJECT])).toBe(false);
    expect(containsSecret(`${PROJECT} `, [PROJECT])).toBe(true);
  });
});

/** §4.4 enable/disable stream, §4.19 timeshift create, stream read extensions. */
import { expectError, expectFields, Harness, harness } from "./helpers";
import { PLAYBACK, PUSH_STREAM, TIMESHIFT_STREAM } from "./shapes";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
beforeEach(() => h.admin("POST", "/__emulator/reset"));

describe("§4.4 enable / disable stream", () => {
  it.each([
    ["push", 3001],
    ["timeshift", 5001],
  ])("flips disabled on a %s stream and back", async (kind, id) => {
    const off = await h.api("POST", `/v2/streams/${kind}/${id}/status`, { disabled: 1 });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      result: "success",
      message: expect.stringContaining("disabled"),
      stream: { id, disabled: "1" },
    });
    expectFields(off.body.stream, kind === "push" ? PUSH_STREAM : TIMESHIFT_STREAM);
    expect(off.body.stream.messages.warning[0]).toContain("disabled");
    expect((await h.api("GET", `/v2/streams/${kind}/${id}`)).body.stream.disabled).toBe("1");
    const on = await h.api("POST", `/v2/streams/${kind}/${id}/status`, { disabled: 0 });
    expect(on.body.stream.disabled).toBe("0");
    expect(on.body.stream.messages.warning).toBeUndefined();
  });

  it.each([
    [{ disabled: 2 }, "must be one of 0, 1"],
    [{ disabled: "1" }, "must be one of 0, 1"],
    [{}, "disabled: required"],
    [{ disabled: 1, x: 1 }, "x: unknown field"],
  ])("rejects %j with 422", async (body, fragment) =>
    expectError(await h.api("POST", "/v2/streams/push/3001/status", body), 422, fragment),
  );

  it("answers 404 for unknown streams, including a push id on the timeshift path", async () => {
    expectError(await h.api("POST", "/v2/streams/push/77/status", { disabled: 1 }), 404, "push stream 77 not found");
    expectError(
      await h.api("POST", "/v2/streams/timeshift/3001/status", { disabled: 1 }),
      404,
      "timeshift stream 3001",
    );
    expectError(await h.api("POST", "/v2/streams/push/not-a-stream/status", { disabled: 1 }), 404);
  });
});

describe("§4.19 create timeshift stream", () => {
  const valid = {
    _METHOD: "PUT",
    name: "main-event-late",
    codec: "h265",
    protocols: ["HLS", "DASH"],
    timeshift: 1800,
    parent: 3001,
    "domainlock[enabled]": "Y",
    "domainlock[policy]": "Y",
    "domainlock[list]": "northwind.example",
    "domainlock[noreferer]": "N",
    "geoblock[enabled]": "Y",
    "geoblock[list]": ["DE", "AT"],
    "ipaccess[list]": "10.0.0.0/8",
    "ndvr[enabled]": "Y",
    "ndvr[retention]": 180,
    "record[enabled]": "Y",
    "record[retention]": 90,
    "record[server]": 12,
    "securetoken[enabled]": "Y",
    "securetoken[policy]": "D",
    "securetoken[list]": "s3cr3t-key",
    "securetoken[timeout]": 600,
    "securetoken[session]": "0",
    "useragent[enabled]": "Y",
    "useragent[list]": "curl/*,Wget/*",
  };

  it("creates a stream with a new id that then answers §4.4 and the read extension", async () => {
    const res = await h.api("POST", "/v2/streams/timeshift/new", valid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "success", message: expect.any(String), warnings: [], errors: null });
    const s = res.body.stream;
    expectFields(s, TIMESHIFT_STREAM);
    expectFields(s.playbackurls, PLAYBACK);
    expect(s).toMatchObject({
      type: "timeshift",
      id: 5002,
      codec: "h265",
      protocols: [["HLS", "DASH"]],
      parentid: 3001,
      status: "Deploying",
      disabled: "0",
      parent: { id: 3001, stype: "push" },
      timeshift: { shift: 1800, type: "stream" },
      parts: { pp: "k3v9q2", sn: "main-event-late", full: "k3v9q2-main-event-late" },
      name: "k3v9q2-main-event-late",
      has: { hls: 1, dash: 1, rtmp: 0, rtsp: 0 },
      domainlock: { enabled: "Y", policy: "Y", list: "northwind.example" },
      geoblock: { enabled: "Y", list: ["DE", "AT"] },
      ndvr: { enabled: "Y", retention: "180" },
      record: { enabled: "Y", retention: "90", server: 12 },
      securetoken: { enabled: "Y", policy: "D", timeout: 600 },
      useragent: { list: "curl/*;;;Wget/*", listArr: ["curl/*", "Wget/*"] },
    });
    // §2.7: timeshift manifests are DVR-style; a token gives tokenized URLs.
    expect(s.playbackurls.hlsManifest).toBe("playlist_dvr.m3u8");
    expect(s.playbackurls.tokenized.token.hls).toMatch(/^token=/);
    const again = await h.api("POST", "/v2/streams/timeshift/new", valid);
    expect(again.body.stream.id).toBe(5003);
    expect((await h.api("POST", "/v2/streams/timeshift/5002/status", { disabled: 1 })).body.stream.disabled).toBe("1");
    expect((await h.api("GET", "/v2/streams/timeshift/5002")).body.stream.disabled).toBe("1");
  });

  it("accepts a push zone as parent and defaults codec and protocols", async () => {
    const res = await h.api("POST", "/v2/streams/timeshift/new", {
      _METHOD: "PUT",
      name: "zone-delay",
      timeshift: 60,
      parent: 101,
    });
    expect(res.body.stream).toMatchObject({ codec: "h264", protocols: [["HLS"]], parent: { id: 101, stype: "zone" } });
  });

  it("warns (without failing) when a lock is enabled with an empty list", async () => {
    const res = await h.api("POST", "/v2/streams/timeshift/new", {
      _METHOD: "PUT",
      name: "w",
      timeshift: 60,
      parent: 3001,
      "ipaccess[enabled]": "Y",
    });
    expect(res.body.result).toBe("success");
    expect(res.body.warnings[0]).toContain("ipaccess");
  });

  it.each([
    [{ "ndvr[retention]": 181 }, "ndvr[retention]: must be at most 180"],
    [{ "record[retention]": 91 }, "record[retention]: must be at most 90"],
    [{ codec: "vp9" }, "codec: must be one of"],
    [{ protocols: ["HLS", "SRT"] }, "protocols.1: must be one of"],
    [{ _METHOD: "POST" }, "_METHOD"],
    [{ parent: 999 }, "parent: no push stream or HTTP push zone with id 999"],
    [{ timeshift: 0 }, "timeshift: must be at least 1"],
    [{ "securetoken[policy]": "X" }, "securetoken[policy]"],
    [{ "geoblock[list]": "DE" }, "geoblock[list]: must be an array"],
    [{ "domainlock[enabled]": "yes" }, "domainlock[enabled]"],
    [{ "ndvr[days]": 3 }, "ndvr[days]: unknown field"],
  ])("rejects %j with 422", async (patch, fragment) => {
    expectError(await h.api("POST", "/v2/streams/timeshift/new", { ...valid, ...patch }), 422, fragment);
  });

  it("requires name, parent and timeshift", async () => {
    const res = await h.api("POST", "/v2/streams/timeshift/new", { _METHOD: "PUT" });
    expectError(res, 422, "name: required", "timeshift: required", "parent: required");
  });
});

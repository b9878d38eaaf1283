/**
 * What every handler shares: what a write's answer says beside its result reaches the user
 * (§2.1 `message`, `warnings`, `errors` of strings or objects; null is none), and a read path
 * that answered 404/405 is not sent again in the run; a check carries the configuration's
 * failures, judged once per configuration.
 */
import { HandlerContext, noteText } from "../../kinds/common/context";
import { NotFoundError } from "../../client";
import * as config from "../../client/core/config";

/** One run's context, shared by the file's cases as a host's handlers share it. */
const context = new HandlerContext();

describe("reportNotes", () => {
  let stderr: jest.SpyInstance;
  const lines = () => stderr.mock.calls.map(([text]) => String(text));
  beforeEach(() => (stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true)));
  afterEach(() => stderr.mockRestore());

  it("shows warnings and errors (strings and objects) as warning lines, and returns them for a warnings output", () => {
    const notes = context.reportNotes("PushZoneSettings", "101", {
      result: "success",
      warnings: ["add a CNAME record for media.example.com"],
      errors: ["quota nearly used", { code: 409, message: "profile 3 is being rebuilt" }, { detail: 1 }],
    });
    expect(notes).toEqual([
      "add a CNAME record for media.example.com",
      "error: quota nearly used",
      "error: profile 3 is being rebuilt (code 409)",
      'error: {"detail":1}',
    ]);
    expect(lines()).toEqual(notes.map((note) => `warning: PushZoneSettings 101: the API said: ${note}\n`));
  });

  it("treats null warnings and errors as none", () => {
    expect(context.reportNotes("TimeshiftStream", "5001", { result: "success", warnings: null, errors: null })).toEqual(
      [],
    );
    expect(lines()).toEqual([]);
  });

  it("shows a message as a plain line, once per kind and wording in a run", () => {
    for (const id of ["401", "402"])
      context.reportNotes("VodPullDomainLock", id, { result: "success", message: "Domain lock settings updated" });
    context.reportNotes("StreamStatus", "push/3001", { result: "success", message: "Domain lock settings updated" });
    expect(lines()).toEqual([
      "VodPullDomainLock 401: the API said: Domain lock settings updated\n",
      "StreamStatus push/3001: the API said: Domain lock settings updated\n",
    ]);
  });

  it("renders an element without a message as JSON", () => {
    expect(noteText({ code: 1 })).toBe('{"code":1}');
    expect(noteText({ message: "m", code: null })).toBe("m");
  });
});

describe("readLive", () => {
  const op = { method: "GET", path: "/v2/things/{id}" };
  const notFound = () =>
    new NotFoundError("Not found (404) on GET /v2/things/{id}", { status: 404, operation: op, attempts: 1 });

  it("sends a read path that answered 404 once in a run, warning once for the kind", async () => {
    const stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const read = jest.fn(async () => {
        throw notFound();
      });
      expect(await context.readLive("Thing", op, read)).toBeUndefined();
      expect(await context.readLive("Thing", op, read)).toBeUndefined();
      expect(read).toHaveBeenCalledTimes(1);
      expect(stderr.mock.calls.map(([text]) => String(text))).toEqual([
        "warning: Thing: the API has no read for this object (404 on GET /v2/things/{id}); refresh keeps the last applied state and cannot detect drift for Thing resources.\n",
      ]);
      // What a run learnt lives in its context: another run's (another host's) sends the read again.
      expect(await new HandlerContext().readLive("Thing", op, read)).toBeUndefined();
      expect(read).toHaveBeenCalledTimes(2);
    } finally {
      stderr.mockRestore();
    }
  });

  it("passes other failures on, and keeps trying a path that answers", async () => {
    const other = { method: "GET", path: "/v2/other/{id}" };
    await expect(context.readLive("Other", other, async () => Promise.reject(new Error("boom")))).rejects.toThrow(
      "boom",
    );
    expect(await context.readLive("Other", other, async () => 7)).toBe(7);
  });
});

describe("readLive, reads that start together", () => {
  it("sends a missing path once even when several resources read it at the same moment", async () => {
    const op = { method: "GET", path: "/v2/together/{id}" };
    const stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const read = jest.fn(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new NotFoundError("Not found (404)", { status: 404, operation: op, attempts: 1 });
      });
      expect(await Promise.all([1, 2, 3].map(() => context.readLive("Together", op, read)))).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(read).toHaveBeenCalledTimes(1);
    } finally {
      stderr.mockRestore();
    }
  });
});

describe("withConfigFailures", () => {
  it("puts the configuration's failures first, without a property, judged again only when a setting changes", async () => {
    const judge = jest.spyOn(config, "configFailures");
    try {
      const host = new HandlerContext();
      expect(host.withConfigFailures({ inputs: {} })).toEqual({ inputs: {} });
      const settings = { apiKey: "key", baseUrl: "http://127.0.0.1:9", rps: "fast" };
      await host.configure(settings);
      const own = { property: "name", reason: "must be set" };
      const rps = { property: "", reason: expect.stringMatching(/^config cdnstream:rps="fast" is not a number >= 0/) };
      expect(host.withConfigFailures({ inputs: {}, failures: [own] })).toEqual({ inputs: {}, failures: [rps, own] });
      // A dynamic host configures once per kind, with the same settings.
      await host.configure({ ...settings });
      expect(host.withConfigFailures({ inputs: {} })).toEqual({ inputs: {}, failures: [rps] });
      expect(judge).toHaveBeenCalledTimes(1);

      await host.configure({ ...settings, rps: "5" });
      expect(host.withConfigFailures({ inputs: {} })).toEqual({ inputs: {} });
      expect(judge).toHaveBeenCalledTimes(2);
    } finally {
      judge.mockRestore();
    }
  });
});

/**
 * Server profiles, chosen per run: the `profile` option, `strictSpec` mapping onto spec-only
 * reads, the admin door (GET/POST/DELETE /__emulator/profile) and the CLI `--profile` parser.
 */
import { DEFAULT_PROFILE, PROFILES, parseProfileFlag, startEmulator } from "../../emulator";
import { startTestEmulator } from "../helpers/emulator";
import { harness, Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness({ profile: { pageSize: 3 } });
});
afterAll(() => h.close());
beforeEach(() => h.admin("DELETE", "/__emulator/profile"));

describe("admin door", () => {
  it("GET answers the whole profile: the option over the default", async () => {
    const res = await h.admin("GET", "/__emulator/profile");
    expect(res).toMatchObject({
      status: 200,
      body: { result: "success", profile: { ...DEFAULT_PROFILE, pageSize: 3 } },
    });
  });

  it("POST merges a partial profile and answers the whole one; DELETE restores the start profile", async () => {
    const set = await h.admin("POST", "/__emulator/profile", { slots: "add-only", writeNotes: true });
    expect(set.body).toEqual({
      result: "success",
      profile: { ...DEFAULT_PROFILE, pageSize: 3, slots: "add-only", writeNotes: true },
    });
    const again = await h.admin("POST", "/__emulator/profile", { pageSize: 1000 });
    expect(again.body.profile).toEqual({ ...DEFAULT_PROFILE, pageSize: 1000, slots: "add-only", writeNotes: true });
    expect((await h.admin("GET", "/__emulator/profile")).body.profile).toEqual(again.body.profile);
    expect((await h.admin("DELETE", "/__emulator/profile")).body.profile).toEqual({ ...DEFAULT_PROFILE, pageSize: 3 });
  });

  it("POST /__emulator/reset restores the account but keeps the profile", async () => {
    await h.admin("POST", "/__emulator/profile", { archivedStatus: "closed" });
    await h.admin("POST", "/__emulator/reset");
    expect((await h.admin("GET", "/__emulator/profile")).body.profile.archivedStatus).toBe("closed");
  });

  it.each([
    [{ pageSize: 0 }, "pageSize: must be an integer >= 1 (got 0)"],
    [{ pageSize: 2.5 }, "pageSize: must be an integer >= 1 (got 2.5)"],
    [{ pageSize: "2" }, 'pageSize: must be an integer >= 1 (got "2")'],
    [{ pastLastPage: "loop" }, 'pastLastPage: must be empty or repeat-last (got "loop")'],
    [{ slots: "replace" }, "slots: must be upsert or add-only"],
    [{ reads: "none" }, "reads: must be extensions or spec-only"],
    [{ archivedStatus: "" }, "archivedStatus: must be a non-empty word"],
    [{ deleted: "iso" }, "deleted: must be date or unix"],
    [{ emptyWarnings: "[]" }, "emptyWarnings: must be array or null"],
    [{ writeNotes: "yes" }, 'writeNotes: must be true or false (got "yes")'],
    [{ pagesize: 2 }, "pagesize: unknown profile field; known fields: pageSize, pastLastPage"],
  ])("POST %j is refused with 422 naming the field, and changes nothing", async (patch, fragment) => {
    const res = await h.admin("POST", "/__emulator/profile", { writeNotes: true, ...patch });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ result: "error" });
    expect(res.body.message).toContain(fragment);
    expect((await h.admin("GET", "/__emulator/profile")).body.profile).toEqual({ ...DEFAULT_PROFILE, pageSize: 3 });
  });

  it("TestEmulator.profile() and setProfile() wrap the door", async () => {
    const emu = await startTestEmulator({ profile: PROFILES["pages-of-1"] });
    try {
      expect(await emu.profile()).toEqual({ ...DEFAULT_PROFILE, pageSize: 1 });
      expect(await emu.setProfile({ reads: "spec-only" })).toEqual({
        ...DEFAULT_PROFILE,
        pageSize: 1,
        reads: "spec-only",
      });
      await expect(emu.setProfile({ reads: "all" } as never)).rejects.toThrow(
        /422.*reads: must be extensions or spec-only/,
      );
    } finally {
      await emu.close();
    }
  });
});

describe("startEmulator options", () => {
  it("strictSpec: true means reads spec-only, whatever the profile says", async () => {
    const emu = await startTestEmulator({ strictSpec: true, profile: { reads: "extensions", pageSize: 2 } });
    try {
      expect(await emu.profile()).toEqual({ ...DEFAULT_PROFILE, reads: "spec-only", pageSize: 2 });
    } finally {
      await emu.close();
    }
  });

  it("refuses a bad profile before listening, naming the field", async () => {
    await expect(startEmulator({ profile: { slots: "never" } as never })).rejects.toThrow(
      'startEmulator: profile: slots: must be upsert or add-only (got "never")',
    );
  });

  it("every named profile is a valid patch", async () => {
    for (const [name, patch] of Object.entries(PROFILES)) {
      const emu = await startTestEmulator({ profile: patch });
      try {
        expect([name, await emu.profile()]).toEqual([name, { ...DEFAULT_PROFILE, ...patch }]);
      } finally {
        await emu.close();
      }
    }
  });
});

describe("parseProfileFlag (the CLI --profile value)", () => {
  it("reads field=value items with typed values, named profiles, later items winning", () => {
    expect(parseProfileFlag("pageSize=2,slots=add-only,reads=spec-only")).toEqual({
      pageSize: 2,
      slots: "add-only",
      reads: "spec-only",
    });
    expect(parseProfileFlag("writeNotes=true, emptyWarnings=null")).toEqual({
      writeNotes: true,
      emptyWarnings: "null",
    });
    expect(parseProfileFlag("strict-server")).toEqual(PROFILES["strict-server"]);
    expect(parseProfileFlag("other-words,archivedStatus=closed")).toEqual({
      ...PROFILES["other-words"],
      archivedStatus: "closed",
    });
    expect(parseProfileFlag("")).toEqual({});
  });

  it.each([
    ["pageSize=zero", '--profile: pageSize: must be an integer >= 1 (got "zero")'],
    ["pageSize=0", "--profile: pageSize: must be an integer >= 1 (got 0)"],
    ["writeNotes=1", '--profile: writeNotes: must be true or false (got "1")'],
    ["size=2", "--profile: size: unknown profile field"],
    ["strict", "--profile: 'strict' is neither field=value nor a named profile"],
    ["slots=", '--profile: slots: must be upsert or add-only (got "")'],
  ])("refuses %s naming it", (text, message) => {
    expect(() => parseProfileFlag(text)).toThrow(message);
  });
});

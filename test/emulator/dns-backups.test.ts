/** §4.14 DNS zones, §4.16 / §4.17 critical backups. */
import { expectError, expectFields, Harness, harness } from "./helpers";
import { BACKUP, DNS_ZONE } from "./shapes";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

it("§4.14 lists DNS zones in the §2.17 shape with the nameservers", async () => {
  const res = await h.api("GET", "/v2/dns");
  expect(res.status).toBe(200);
  expect(res.body.result).toBe("success");
  expect(res.body.nameservers).toEqual(expect.arrayContaining([expect.stringMatching(/^ns\d\./)]));
  expect(res.body.domains).toHaveLength(3);
  for (const d of res.body.domains) expectFields(d, DNS_ZONE);
  expect(res.body.domains[0].dnssec.ds_records[0]).toMatchObject({ key_tag: 2371, algorithm_name: "ECDSAP256SHA256" });
});

it("§4.17 lists critical backups and §4.16 gets one", async () => {
  const list = await h.api("GET", "/v2/cb");
  expect(list.body.result).toBe("success");
  for (const b of list.body.backups) expectFields(b, BACKUP);
  const one = await h.api("GET", "/v2/cb/62");
  expect(one.body).toMatchObject({ result: "success", backup: { id: 62, linkedZones: [102, 301], linksCount: 2 } });
  expectError(await h.api("GET", "/v2/cb/63"), 404, "critical backup 63 not found");
  expectError(await h.api("GET", "/v2/cb/sixty"), 404, "ids are integers");
});

it("derives linksCount from linkedZones after an out-of-band change", async () => {
  await h.admin("POST", "/__emulator/mutate", { kind: "backups", id: 61, patch: { linkedZones: [101, 102, 103] } });
  expect((await h.api("GET", "/v2/cb/61")).body.backup.linksCount).toBe(3);
});

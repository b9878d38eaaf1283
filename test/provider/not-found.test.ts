/**
 * A 404 said for its case, over real HTTP: a read of an object that is gone (deleted outside the
 * stack), a write whose path names an object that does not exist (named), and a path the API does
 * not serve (the base URL reaches something else, or the API lacks it): check the base URL.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { backups, CdnstreamClient, NotFoundError, streams } from "../../client";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { stackWording } from "../../kinds/common/advice";

describe("404 wording", () => {
  let emulator: TestEmulator;
  const clients: CdnstreamClient[] = [];
  const clientAt = (baseUrl: string) => {
    const client = new CdnstreamClient({ ...stackWording(), apiKey: emulator.apiKey, baseUrl, maxRetries: 0, env: {} });
    clients.push(client);
    return client;
  };
  const notFound = async (call: Promise<unknown>): Promise<string> => {
    const err = await call.then(() => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    return (err as Error).message;
  };

  beforeAll(async () => (emulator = await startTestEmulator()));
  afterAll(async () => {
    for (const client of clients) await client.close();
    await emulator.close();
  });

  it("a read: nothing has the id, named; a recorded object was deleted outside the stack", async () => {
    const message = await notFound(backups.getBackup(clientAt(emulator.url), 987654));
    expect(message).toMatch(/^Not found \(404\) \(\/v2\/cb\/987654\) on GET \/v2\/cb\/\{backupid\}: /);
    expect(message).toContain(
      "Nothing in this account has this id (backup 987654): if the stack recorded the object, it was deleted outside the stack",
    );
    expect(message).not.toContain("baseUrl");
  });

  it("a write: the object its path addresses does not exist, named; not 'deleted outside the stack' as the cause", async () => {
    const message = await notFound(streams.setPushStreamStatus(clientAt(emulator.url), 987654, { disabled: 1 }));
    expect(message).toContain("on POST /v2/streams/push/{streamid}/status");
    expect(message).toContain("The stream 987654 this write addresses does not exist in this account");
    expect(message).not.toContain("may have been deleted outside the stack");
    expect(message).not.toContain("baseUrl");
  });

  it("a path the API does not serve (a base URL with a wrong prefix): check the base URL", async () => {
    const message = await notFound(backups.getBackup(clientAt(`${emulator.url}/api`), 1));
    expect(message).toContain("The API does not serve this path: check that cdnstream:baseUrl (CDNSTREAM_BASE_URL)");
    expect(message).not.toContain("deleted outside the stack");
  });

  it("a base URL that reaches something other than the API (a 404 that is not the API's JSON): check the base URL", async () => {
    const other = http.createServer((_req, res) =>
      res.writeHead(404, { "content-type": "text/html" }).end("<h1>404</h1>"),
    );
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = other.address() as AddressInfo;
      const message = await notFound(
        streams.setPushStreamStatus(clientAt(`http://127.0.0.1:${port}`), 3001, { disabled: 1 }),
      );
      expect(message).toContain("The API does not serve this path: check that cdnstream:baseUrl");
      expect(message).not.toContain("this write addresses");
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

/**
 * The client loads undici's Agent and request from their own modules rather than undici's index (client.ts says
 * why). That path is undici's layout, not its public API: this fails, before users would, when
 * an upgrade moves it or makes it another class than the index's.
 */
import * as undici from "undici";

describe("undici's Agent, as the client loads it", () => {
  it("is the class undici's index exports", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the path client.ts loads
    expect(require("undici/lib/dispatcher/agent")).toBe(undici.Agent);
  });

  it("calls the request the index puts on every dispatcher", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the path client.ts loads
    expect(require("undici/lib/api/api-request")).toBe(undici.Dispatcher.prototype.request);
  });
});

/**
 * The layers rule (scripts/lint/layers.mjs) through ESLint with the repository's configuration,
 * as `npm run lint` runs it: a module in no place, an import up the layers or from a layer into a
 * folder apart, in any form, and a circle of any length fail; imports down the layers pass.
 */
import { ruleMessages } from "../helpers/eslint";

/** The layers rule's messages for `text` linted as if it were `file`. */
const layerErrors = (file: string, text: string) => ruleMessages("cdnstream/layers", file, text);

describe("the layers rule", () => {
  it("refuses an import from a lower layer to a higher one, naming both and the layers", async () => {
    expect(
      await layerErrors("client/core/errors.ts", 'import { serve } from "../../provider/plugin/server";\n'),
    ).toEqual([
      expect.stringContaining(
        'client/core/errors.ts (layer "API client machinery") imports provider/plugin/server.ts (layer "plugin and CLI", above it)',
      ),
    ]);
    expect(await layerErrors("client/core/x.ts", 'export * from "../resources/zones";\n')).toEqual([
      expect.stringContaining(
        '(layer "API client machinery") imports client/resources/zones.ts (layer "API client families", above it)',
      ),
    ]);
    expect(await layerErrors("kinds/stream-status/handler.ts", 'export * from "../resource";\n')).toEqual([
      expect.stringContaining('(layer "handlers") imports kinds/resource.ts (layer "resource classes", above it)'),
    ]);
  });

  it("reads every import form, type-only ones included", async () => {
    const forms = [
      'import type { Command } from "../../provider/cli/command";',
      'export * from "../../provider/cli/command";',
      'import "../../provider/cli/command";',
      'import command = require("../../provider/cli/command");',
      'type Io = import("../../provider/cli/command").Io;',
      'const lazy = () => import("../../provider/cli/command");',
    ];
    expect(await layerErrors("client/core/x.ts", forms.join("\n") + "\n")).toEqual(
      forms.map(() => expect.stringContaining('imports provider/cli/command.ts (layer "plugin and CLI", above it)')),
    );
  });

  it("refuses a module in no layer and in no folder apart", async () => {
    expect(await layerErrors("lib/x.ts", "export const x = 1;\n")).toEqual([
      expect.stringContaining("lib/x.ts is in no layer and in no folder apart: add its folder to LAYERS or to APART"),
    ]);
  });

  it("refuses an import from a layer into a folder apart", async () => {
    expect(await layerErrors("provider/cli/x.ts", 'export { startEmulator } from "../../emulator";\n')).toEqual([
      expect.stringContaining(
        'provider/cli/x.ts (layer "plugin and CLI") imports emulator/index.ts, which is in no layer (apart: emulator)',
      ),
    ]);
  });

  it("refuses a circle of three modules, in a folder apart too", async () => {
    // emulator/server.ts imports ./admin, which imports ./store: the store importing the server closes a circle.
    expect(await layerErrors("emulator/store.ts", 'import type { ServerDeps } from "./server";\n')).toEqual([
      expect.stringMatching(
        /^emulator\/store\.ts -> emulator\/server\.ts( -> \S+)+ -> emulator\/store\.ts import in a circle/,
      ),
    ]);
  });

  it("refuses two modules importing each other, type-only imports included", async () => {
    // client/core/client.ts imports types from ./operation; the operation importing the client back closes a circle.
    expect(
      await layerErrors(
        "client/core/operation.ts",
        'import type { CdnstreamClient } from "./client";\nexport type C = CdnstreamClient;\n',
      ),
    ).toEqual([expect.stringContaining("client/core/operation.ts and client/core/client.ts import each other")]);
  });

  it("lets imports run down the layers", async () => {
    expect(
      await layerErrors(
        "provider/plugin/x.ts",
        'export * from "../../client/core/errors";\nexport * from "../../kinds/resource";\n',
      ),
    ).toEqual([]);
    expect(await layerErrors("sdk/x.ts", 'export type { CdnstreamClient } from "../client";\n')).toEqual([]);
  });
});

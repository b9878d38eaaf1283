/** Reading a Pulumi.yaml for the inline run of a project directory (provider/cli/project.ts). */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { projectName, readProject } from "../../provider/cli/project";

describe("readProject", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdnstream-project-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (yaml: string) => fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yaml);

  it("reads name and main, defaulting main to index.js", () => {
    write("name: shop\nruntime: nodejs\ndescription: main: not this\n");
    expect(readProject(dir)).toEqual({ name: "shop", runtime: "nodejs", main: path.join(dir, "index.js") });
    write("name: 'shop-2' # the project\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: \"dist/index.js\"\n");
    expect(readProject(dir)).toEqual({ name: "shop-2", runtime: "nodejs", main: path.join(dir, "dist", "index.js") });
    expect(projectName(dir)).toBe("shop-2");
  });

  it("says what is wrong with the directory", () => {
    expect(() => readProject(dir)).toThrow(/Pulumi\.yaml: cannot read the project file \(ENOENT\); --cwd must be a Pulumi project directory/);
    write("runtime: nodejs\n");
    expect(() => readProject(dir)).toThrow(/Pulumi\.yaml has no name/);
    write("name: py\nruntime: python\n");
    expect(() => readProject(dir)).toThrow(/runtime is "python"; only nodejs projects can be run inline/);
  });
});

"""Previews one of the Python examples (docs/examples/python/__main__.py) as written, run through
Pulumi's Automation API as an inline program, for test/e2e/examples-languages.test.ts.

    python examples.py PROGRAM.py

The stack comes as JSON in CDNSTREAM_EXAMPLES_SPEC: {"project", "stack", "workDir", "apiKey",
"baseUrl"}; the account is the stack's provider configuration (cdnstream:apiKey, as a secret, and
cdnstream:baseUrl), which the example's resources take through the default provider. The backend
and passphrase come from the environment. The engine's output goes to stderr; the last stdout
line is the preview's change summary as JSON.
"""

import json
import os
import runpy
import sys

from pulumi import automation as auto


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: examples.py PROGRAM.py\n")
        return 2
    program_file = os.path.abspath(argv[1])
    spec = json.loads(os.environ["CDNSTREAM_EXAMPLES_SPEC"])
    stack = auto.create_or_select_stack(
        stack_name=spec["stack"],
        project_name=spec["project"],
        # The example file runs as a program's __main__.py does.
        program=lambda: runpy.run_path(program_file, run_name="__main__"),
        opts=auto.LocalWorkspaceOptions(
            work_dir=spec["workDir"],
            project_settings=auto.ProjectSettings(name=spec["project"], runtime="python"),
        ),
    )
    stack.set_config("cdnstream:apiKey", auto.ConfigValue(value=spec["apiKey"], secret=True))
    stack.set_config("cdnstream:baseUrl", auto.ConfigValue(value=spec["baseUrl"]))
    preview = stack.preview(on_output=lambda line: sys.stderr.write(line if line.endswith("\n") else line + "\n"))
    print(json.dumps({"changes": preview.change_summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

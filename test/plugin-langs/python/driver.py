"""A Python program using the generated SDK (pulumi_cdnstream), run through Pulumi's Automation
API as an inline program, for the end-to-end suite test/e2e/plugin-python.test.ts.

    python driver.py up|preview|refresh|import|destroy|export

What to declare comes as JSON in CDNSTREAM_DRIVER_SPEC:
    {"project", "stack", "workDir", "apiKey" (optional), "baseUrl",
     "stream": {"streamKind", "streamId", "disabled"},
     "import": {"id", "streamKind", "streamId", "disabled"} or absent}
The backend and passphrase come from the environment (PULUMI_BACKEND_URL, PULUMI_HOME,
PULUMI_CONFIG_PASSPHRASE). The engine's output goes to stderr; the last stdout line is one JSON
object (the change summary, and the stack's outputs or its cdnstream resources; for export, the
stack's deployment) for the test to assert on.
"""

import json
import os
import sys

import pulumi
import pulumi_cdnstream as cdnstream
from pulumi import automation as auto

VERBS = ("up", "preview", "refresh", "import", "destroy", "export")


def program_for(spec):
    def program():
        # An explicit provider: its address is the program's to choose; without an "apiKey" in the
        # spec the key is the environment's (CDNSTREAM_API_KEY), which the provider reads itself.
        provider = cdnstream.Provider("account", api_key=spec.get("apiKey"), base_url=spec["baseUrl"])
        stream = spec["stream"]
        status = cdnstream.StreamStatus(
            "live",
            stream_kind=stream["streamKind"],
            stream_id=stream["streamId"],
            disabled=stream["disabled"],
            opts=pulumi.ResourceOptions(provider=provider),
        )
        pulumi.export("id", status.id)
        pulumi.export("status", status.status)
        pulumi.export("disabled", status.disabled)
        pulumi.export("name", status.name)
        # The data source through the same account; the test counts its API call. (Only that it
        # resolves is exported: which fields its result declares is the schema's to say.)
        zones = cdnstream.get_dns_zones_output(opts=pulumi.InvokeOutputOptions(provider=provider))
        pulumi.export("dnsZoneDomains", zones.apply(lambda result: [zone.domain for zone in result.domains]))
        # The same data source through the default provider, configured by the environment alone.
        default_zones = cdnstream.get_dns_zones_output()
        pulumi.export("defaultDnsZoneCount", default_zones.apply(lambda result: len(result.domains)))

        adopt = spec.get("import")
        if adopt:
            # The `import` option adopts the live object; once in state the option changes nothing.
            adopted = cdnstream.StreamStatus(
                "adopted",
                stream_kind=adopt["streamKind"],
                stream_id=adopt["streamId"],
                disabled=adopt["disabled"],
                opts=pulumi.ResourceOptions(provider=provider, import_=adopt["id"]),
            )
            pulumi.export("adoptedId", adopted.id)
            pulumi.export("adoptedDisabled", adopted.disabled)

    return program


def log(line):
    sys.stderr.write(line if line.endswith("\n") else line + "\n")


def cdnstream_resources(stack):
    """The stack's cdnstream resources as recorded (secret outputs left out), by name."""
    deployment = stack.export_stack().deployment or {}
    found = {}
    for res in deployment.get("resources") or []:
        if res.get("type", "").startswith("cdnstream:index:"):
            outputs = {k: v for k, v in (res.get("outputs") or {}).items() if not isinstance(v, dict)}
            found[res["urn"].split("::")[-1]] = outputs
    return found


def main(argv):
    if len(argv) != 2 or argv[1] not in VERBS:
        log(f"usage: driver.py {'|'.join(VERBS)}")
        return 2
    verb = argv[1]
    spec = json.loads(os.environ["CDNSTREAM_DRIVER_SPEC"])
    if verb == "import" and not spec.get("import"):
        log('the "import" verb needs "import" in CDNSTREAM_DRIVER_SPEC: the id and inputs of the object to adopt')
        return 2

    stack = auto.create_or_select_stack(
        stack_name=spec["stack"],
        project_name=spec["project"],
        program=program_for(spec),
        opts=auto.LocalWorkspaceOptions(
            work_dir=spec["workDir"],
            project_settings=auto.ProjectSettings(name=spec["project"], runtime="python"),
        ),
    )

    result = {"verb": verb}
    if verb in ("up", "import"):
        up = stack.up(on_output=log)
        result["changes"] = up.summary.resource_changes
        result["outputs"] = {k: ("[secret]" if v.secret else v.value) for k, v in up.outputs.items()}
    elif verb == "preview":
        result["changes"] = stack.preview(on_output=log).change_summary
    elif verb == "refresh":
        refresh = stack.refresh(on_output=log)
        result["changes"] = refresh.summary.resource_changes
        result["resources"] = cdnstream_resources(stack)
    elif verb == "destroy":
        result["changes"] = stack.destroy(on_output=log).summary.resource_changes
        result["resources"] = cdnstream_resources(stack)
    else:
        result["changes"] = {}
        result["deployment"] = stack.export_stack().deployment
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Type errors a user's checker must report on the released Python SDK: the control case of the
type check in test/e2e/plugin-sdk-packages.test.ts, which proves the check reads the SDK's types
(an SDK without them would let both lines through).
"""

import pulumi
import pulumi_cdnstream as cdnstream

# `disabled` is a bool input, not a string.
cdnstream.StreamStatus("main", stream_kind="push", stream_id="1234", disabled="yes")

# `name` is an Output[str], not an int.
name: pulumi.Output[int] = cdnstream.StreamStatus("other", stream_kind="push", stream_id="1", disabled=True).name

# Runs a Python example's program under Pulumi's mocks (fleet_mocks.py; see README.md) and prints one
# JSON line: what it registered. Usage: python run_example.py EXAMPLE_DIR PROJECT CONFIG_JSON
import json
import os
import runpy
import sys

import pulumi
from fleet_mocks import Mocks, registered  # beside this file

example, project, config = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
pulumi.runtime.set_mocks(Mocks(), project=project, stack="dev", preview=False)
# The stack's config, as the engine passes it: `<project>:<key>`, objects as JSON text.
pulumi.runtime.set_all_config({f"{project}:{key}": value if isinstance(value, str) else json.dumps(value) for key, value in config.items()})
os.chdir(example)


@pulumi.runtime.test
def program():
    runpy.run_path("__main__.py", run_name="__main__")


program()
registered.sort(key=lambda r: r["name"])
sys.stdout.write("REGISTERED " + json.dumps(registered) + "\n")

"""QUARRY_WITHOUT_PANDAS=1 runs the tests as on a machine without pandas: the client answers lists and dicts."""

import os
import sys

if os.environ.get("QUARRY_WITHOUT_PANDAS") == "1":
    sys.modules["pandas"] = None  # an import of pandas now fails, as where it is not installed

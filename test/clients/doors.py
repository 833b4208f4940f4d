"""Calls the Python client (clients/python, on PYTHONPATH) as a notebook would, for the suite's every-door test.

Reads one JSON object from standard input: {"base_url", "datasets_key", "calls": [[method, args, kwargs], ...]}
and prints, per call, what the client keeps of the answer: for a frame, its row count and the attrs every
dataset shares (read_as_of, as_of, newest_period, and status and gaps where the answer has them); for a dict
(an award), its knownAt and knownFrom.
"""

import json
import sys

import quarry

SHARED = ["read_as_of", "as_of", "known_from", "newest_period", "status", "gaps"]


def main():
    ask = json.load(sys.stdin)
    client = quarry.Client(datasets_key=ask["datasets_key"], base_url=ask["base_url"])
    out = []
    for method, args, kwargs in ask["calls"]:
        answer = getattr(client, method)(*args, **kwargs)
        if isinstance(answer, dict):
            out.append({"knownAt": answer.get("knownAt"), "knownFrom": answer.get("knownFrom")})
        else:
            attrs = {k: answer.attrs[k] for k in SHARED if k in answer.attrs}
            out.append({"rows": len(answer), "attrs": attrs})
    print(json.dumps(out))


if __name__ == "__main__":
    main()

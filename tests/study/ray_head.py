"""A private local Ray cluster for the tests: started here, its address printed, stopped when
standard input closes (so the test tears down exactly what it started).

    python ray_head.py CPUS
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray


def main() -> None:
    info = ray.init(num_cpus=int(sys.argv[1]), include_dashboard=False, log_to_driver=False)
    print(info.address_info["gcs_address"], flush=True)
    try:
        sys.stdin.read()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()

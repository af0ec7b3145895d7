# ctlcc.sim._ns3_worker - worker process that runs ns-3 jobs from a JSON file
"""Run the ns-3 jobs of a JSON file and write their results (private).

Usage: ``python -m ctlcc.sim._ns3_worker jobs.json results.json``.  Started
by :func:`ctlcc.sim.ns3.run_ns3_many` so that ns-3 (and its global state)
lives in a process of its own.
"""

import json
import sys

__all__ = ["main"]


def main(argv=None):
    """Read jobs from ``argv[0]``, run them, write results to ``argv[1]``."""
    argv = sys.argv[1:] if argv is None else argv
    job_path, out_path = argv
    with open(job_path) as handle:
        jobs = json.load(handle)
    from ._ns3_backend import run_job

    results = [run_job(job) for job in jobs]
    with open(out_path, "w") as handle:
        json.dump(results, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())

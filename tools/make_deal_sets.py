"""Write the deal sets shipped in src/spades/rl/deals/ (see spades.rl.deal_sets).

    .venv/bin/python tools/make_deal_sets.py [--check]

Each set is the arena's duplicate deals for its master seed, so rerunning this
writes the same bytes; --check only compares the files with what the seeds give
(and fails naming the first that differs). A new version of a set gets a new
name and seed in ``SHIPPED``: a published set never changes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from spades.rl.deal_sets import SHIPPED, deal_set_path, make_deal_set, write_deal_set


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    for name, (seed, count) in SHIPPED.items():
        path = deal_set_path(name)
        deal_set = make_deal_set(name, seed, count)
        if args.check:
            with tempfile.TemporaryDirectory() as scratch:
                fresh = Path(scratch) / path.name
                write_deal_set(deal_set, fresh)
                if not path.exists() or fresh.read_bytes() != path.read_bytes():
                    print(f"{path} is not what seed {seed} deals: run tools/make_deal_sets.py")
                    return 1
            print(f"{name}: {count} deals, seed {seed}: up to date")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        write_deal_set(deal_set, path)
        print(f"wrote {path} ({count} deals, seed {seed}, {path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

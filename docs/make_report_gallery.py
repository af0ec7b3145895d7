# docs/make_report_gallery.py - a handful of report figures for the documentation's gallery
"""Write a few of ``ctlcc report``'s figures into ``docs/gallery/report/``.

The documentation's gallery page shows every PNG under ``docs/gallery/``
with its caption from the ``captions.json`` next to it.  This script draws
the figures chosen below with the same ``report_items()`` generators that
``ctlcc report`` uses (analytical sections only, so it takes seconds), and
saves each as a 110 dpi PNG plus its caption.

Run from the repository root::

    python docs/make_report_gallery.py
"""

import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

OUT = ROOT / "docs" / "gallery" / "report"

#: (module, figure name) of the figures shown; one or two per paper.
CHOSEN = (
    ("ctlcc.plots.stpd", "thesis_eq4_18_pole_map"),
    ("ctlcc.plots.stpd", "thesis_fig4_5_loss_response"),
    ("ctlcc.plots.bounds", "iftp_fig3_bandwidth_rtt_vs_n"),
    ("ctlcc.plots.bounds", "rate_vs_loss_mathis_pftk_tfrc_iftp"),
    ("ctlcc.plots.primo", "primo_limit_cycle_phase_portrait"),
    ("ctlcc.plots.fuzzy", "thesis_sec3_4_3_2_gain_schedules"),
)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    captions, missing = {}, []
    for module_name in dict.fromkeys(m for m, _ in CHOSEN):
        wanted = {name for m, name in CHOSEN if m == module_name}
        for item in importlib.import_module(module_name).report_items():
            if getattr(item, "figure", None) is None or item.name not in wanted:
                continue
            item.figure.savefig(OUT / f"{item.name}.png", dpi=110)
            captions[item.name] = item.caption
            wanted.discard(item.name)
        missing += [f"{module_name}:{name}" for name in sorted(wanted)]
    (OUT / "captions.json").write_text(json.dumps(captions, indent=1, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    print(f"wrote {len(captions)} figures to {OUT.relative_to(ROOT)}")
    if missing:
        print("not produced by report_items() (renamed?):", ", ".join(missing))


if __name__ == "__main__":
    main()

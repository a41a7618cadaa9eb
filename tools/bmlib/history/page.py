# SPDX-License-Identifier: Apache-2.0
"""The static trend page of `bm history report -o DIR`: index.html with the series' data in it,
history_page.js (its code, page.js here) and Debian's Chart.js (libjs-chart.js) copied beside it, so the
page opens from disk with no server and fetches nothing."""
import html
import os
import shutil

from ..analysis import stats
from ..errors import UsageError
from ..records.frame import dumps_json
from .changes import rows
from .store import now_iso, short

CHART_JS = "/usr/share/javascript/chart.js/chart.min.js"
CHART_JS_COPYRIGHT = "/usr/share/doc/libjs-chart.js/copyright"
PAGE_JS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.js")
FILES = ("index.html", "chart.min.js", "chart.js-copyright.txt", "history_page.js")

_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>baremark history</title>
<style>
body {{ font: 14px/1.4 sans-serif; margin: 16px 24px; color: #222; background: #fff; }}
h1 {{ font-size: 20px; margin: 0 0 4px; }}
.meta {{ color: #555; margin-bottom: 12px; }}
.filters {{ margin: 8px 0 16px; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }}
#charts {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(440px, 1fr)); gap: 16px; }}
.card {{ border: 1px solid #ddd; border-radius: 6px; padding: 8px 12px 12px; }}
.card.changed {{ border-color: #d62728; }}
.card h2 {{ font-size: 15px; margin: 0; }}
.sub {{ color: #666; font-size: 12px; margin-bottom: 6px; }}
.plot {{ position: relative; height: 260px; }}
table {{ border-collapse: collapse; margin-bottom: 16px; font-size: 13px; }}
td, th {{ border-bottom: 1px solid #eee; padding: 2px 10px 2px 0; text-align: left; }}
</style>
</head>
<body>
<h1>baremark history</h1>
<div class="meta">{summary}</div>
<div class="filters">
  <label>board <select id="board"><option value="">all</option></select></label>
  <label>benchmark <select id="bench"><option value="">all</option></select></label>
  <label><input type="checkbox" id="only-changed"> only charts with change points</label>
  <span id="shown"></span>
</div>
<h2 style="font-size:16px">Change points ({nchanges})</h2>
<table><thead><tr><th>benchmark</th><th>series</th><th>figure</th><th>before</th><th>after</th>
<th>change</th><th>method</th></tr></thead><tbody id="changes"></tbody></table>
<div id="charts"></div>
<p class="meta">P50 (line), P90 (dashed), min..P99 (band) of each revision's runs (the median over them);
red: change points. {method}</p>
<script id="bm-data" type="application/json">{data}</script>
<script src="chart.min.js"></script>
<script src="history_page.js"></script>
</body>
</html>
"""


def _figures(p):
    out = {"status": p.status, "runs": len(p.runs)}
    for k in ("min", "p50", "p90", "p99", "max", "mean"):
        v = p.values(k)
        out[k] = stats.median(v) if v else None
    return out


def page_data(series, changes):
    charts, by_series = [], {}
    for c in changes:
        by_series.setdefault(id(c.series), []).append(c)
    table = rows(changes, group=True)
    where = {}
    for i, s in enumerate(series):
        cid = f"chart{i}"
        where[id(s)] = cid
        pts = []
        for p in s.points:
            d = {"rev": short(p.revision), "revision": p.revision, "subject": p.subject or "",
                 "time": p.rev_time or p.first_time}
            d.update(_figures(p))
            pts.append(d)
        marks = [{"index": r["_change"].index, "text": f"{r['figure']} {r['change']} ({r['method']}, after "
                                                       f"{r['before_revision']})"}
                 for r in table if r["_change"].series is s]
        charts.append({"id": cid, "board": s.board, "series": s.name, "bench": s.bench, "unit": s.unit,
                       "deterministic": s.deterministic, "points": pts, "changes": marks})
    listed = [{"bench": r["benchmark"], "series": r["_change"].series.name, "figure": r["figure"],
               "before": r["before_revision"], "after": r["after_revision"], "change": r["change"],
               "method": r["method"], "chart": where[id(r["_change"].series)]} for r in table]
    return {"charts": charts, "changes": listed}


def write_site(out, series, changes, store_name, method_text):
    if not os.path.exists(CHART_JS):
        raise UsageError(f"{CHART_JS} is missing: the page draws with Debian's Chart.js "
                         "(apt-get install libjs-chart.js; tools/setup --all installs it)")
    if os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"-o {out} is a file: name a folder for the page")
    if os.path.isdir(out):
        other = [f for f in os.listdir(out) if f not in FILES]
        if other:
            # (the page's own files are rewritten; anything else there is not ours to overwrite)
            raise UsageError(f"-o {out} holds other files ({', '.join(sorted(other)[:3])}): name a new or empty "
                             "folder, or one a report wrote")
    try:
        os.makedirs(out, exist_ok=True)
        shutil.copyfile(CHART_JS, os.path.join(out, "chart.min.js"))
        if os.path.exists(CHART_JS_COPYRIGHT):
            shutil.copyfile(CHART_JS_COPYRIGHT, os.path.join(out, "chart.js-copyright.txt"))
        shutil.copyfile(PAGE_JS, os.path.join(out, "history_page.js"))
        data = page_data(series, changes)
        runs = {r.id for s in series for p in s.points for r in p.runs}
        revs = {p.revision for s in series for p in s.points}
        points = len({(id(c.series), c.index) for c in changes})
        summary = (f"{len(runs)} runs at {len(revs)} revisions, {len(series)} charts, {points} change "
                   f"point{'s' if points != 1 else ''}; "
                   f"store {html.escape(store_name)}; written {now_iso()}")
        text = _HTML.format(summary=summary, nchanges=points, method=html.escape(method_text),
                            data=dumps_json(data).replace("</", "<\\/"))
        with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise UsageError(f"cannot write the page into {out}: {e.strerror or e}")
    return os.path.join(out, "index.html")

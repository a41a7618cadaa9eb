/* SPDX-License-Identifier: Apache-2.0 */
// The trend page of `bm history report` (copied beside index.html with Debian's Chart.js): one
// chart per benchmark and series over revisions, P50 with a min..P99 band and P90 dashed, change
// points marked, a tooltip with the revision and its figures, filters by board and benchmark.
// Opened from disk: everything it needs is in its folder, nothing is fetched.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("bm-data").textContent);
  var grid = document.getElementById("charts");
  var boardSel = document.getElementById("board");
  var benchSel = document.getElementById("bench");
  var onlyChanged = document.getElementById("only-changed");
  var cards = [];

  function fmt(v) {
    if (v === null || v === undefined) return "-";
    return Number(v).toLocaleString("en-US", {maximumFractionDigits: 3});
  }

  function option(sel, value) {
    var o = document.createElement("option");
    o.value = value;
    o.textContent = value;
    sel.appendChild(o);
  }

  // Change points: a red dashed line through the chart at each, and its figure in the label.
  var changeLines = {
    id: "bmChangeLines",
    afterDatasetsDraw: function (chart) {
      var marks = chart.options.plugins.bmChangeLines.marks || [];
      var ctx = chart.ctx, area = chart.chartArea, x = chart.scales.x;
      ctx.save();
      ctx.strokeStyle = "#d62728";
      ctx.fillStyle = "#d62728";
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 4]);
      marks.forEach(function (m) {
        var px = x.getPixelForValue(m.index);
        ctx.beginPath();
        ctx.moveTo(px, area.top);
        ctx.lineTo(px, area.bottom);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.beginPath();          // a triangle on top: where to look
        ctx.moveTo(px - 6, area.top);
        ctx.lineTo(px + 6, area.top);
        ctx.lineTo(px, area.top + 9);
        ctx.closePath();
        ctx.fill();
        ctx.setLineDash([6, 4]);
      });
      ctx.restore();
    }
  };

  function chartFor(s, canvas) {
    var pts = s.points;
    var col = function (k) { return pts.map(function (p) { return p[k]; }); };
    var changeAt = {};
    s.changes.forEach(function (c) { (changeAt[c.index] = changeAt[c.index] || []).push(c.text); });
    return new Chart(canvas.getContext("2d"), {
      type: "line",
      data: {
        labels: pts.map(function (p) { return p.rev; }),
        datasets: [
          {label: "min", data: col("min"), borderWidth: 0, pointRadius: 0, borderColor: "rgba(31,119,180,0)", fill: false},
          {label: "min..p99", data: col("p99"), borderWidth: 0, pointRadius: 0, borderColor: "rgba(31,119,180,0)",
           backgroundColor: "rgba(31,119,180,0.18)", fill: "-1"},
          {label: "p90", data: col("p90"), borderColor: "#7f7f7f", borderDash: [4, 3], borderWidth: 1, pointRadius: 0, fill: false},
          {label: "p50", data: col("p50"), borderColor: "#1f77b4", backgroundColor: "#1f77b4", borderWidth: 2,
           pointRadius: pts.map(function (p, i) { return changeAt[i] ? 6 : 3; }),
           pointBackgroundColor: pts.map(function (p, i) { return changeAt[i] ? "#d62728" : "#1f77b4"; }),
           pointBorderColor: pts.map(function (p, i) { return changeAt[i] ? "#d62728" : "#1f77b4"; }),
           fill: false}
        ]
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: {mode: "index", intersect: false},
        scales: {
          x: {title: {display: true, text: "revision"}, ticks: {maxRotation: 60, autoSkip: true}},
          y: {title: {display: true, text: s.unit + " per iteration"}, grace: "5%"}
        },
        plugins: {
          legend: {labels: {filter: function (item) { return item.text !== "min"; }, boxWidth: 14}},
          bmChangeLines: {marks: s.changes},
          tooltip: {
            filter: function (item) { return item.datasetIndex === 3; },
            callbacks: {
              title: function (items) {
                var p = pts[items[0].dataIndex];
                return p.rev + (p.subject ? "  " + p.subject : "");
              },
              label: function (item) {
                var p = pts[item.dataIndex];
                if (p.status !== "ok") return "status: " + p.status;
                return "p50 " + fmt(p.p50) + " " + s.unit;
              },
              afterBody: function (items) {
                var p = pts[items[0].dataIndex];
                var out = ["min " + fmt(p.min) + "  p90 " + fmt(p.p90) + "  p99 " + fmt(p.p99),
                           "max " + fmt(p.max) + "  mean " + fmt(p.mean),
                           p.runs + (p.runs === 1 ? " run" : " runs") + (p.time ? ", " + p.time : "")];
                (changeAt[items[0].dataIndex] || []).forEach(function (t) { out.push("change: " + t); });
                return out;
              }
            }
          }
        }
      },
      plugins: [changeLines]
    });
  }

  var boards = [], benches = [];
  data.charts.forEach(function (s) {
    if (boards.indexOf(s.board) < 0) boards.push(s.board);
    if (benches.indexOf(s.bench) < 0) benches.push(s.bench);
  });
  boards.sort().forEach(function (b) { option(boardSel, b); });
  benches.sort().forEach(function (b) { option(benchSel, b); });

  data.charts.forEach(function (s) {
    var card = document.createElement("section");
    card.className = "card" + (s.changes.length ? " changed" : "");
    card.id = s.id;
    var h = document.createElement("h2");
    h.textContent = s.bench;
    var sub = document.createElement("div");
    sub.className = "sub";
    var at = {};
    s.changes.forEach(function (c) { at[c.index] = true; });
    var n = Object.keys(at).length;
    sub.textContent = s.series + " \u00b7 " + s.unit + " \u00b7 " + s.points.length + " revisions" +
      (n ? " \u00b7 " + n + " change point" + (n > 1 ? "s" : "") : "");
    var box = document.createElement("div");
    box.className = "plot";
    var canvas = document.createElement("canvas");
    box.appendChild(canvas);
    card.appendChild(h);
    card.appendChild(sub);
    card.appendChild(box);
    grid.appendChild(card);
    cards.push({s: s, card: card, chart: chartFor(s, canvas)});
  });

  function applyFilters() {
    var b = boardSel.value, n = benchSel.value, only = onlyChanged.checked, shown = 0;
    cards.forEach(function (c) {
      var show = (b === "" || c.s.board === b) && (n === "" || c.s.bench === n) && (!only || c.s.changes.length > 0);
      c.card.style.display = show ? "" : "none";
      if (show) shown++;
    });
    document.getElementById("shown").textContent = shown + " of " + cards.length + " charts";
  }
  [boardSel, benchSel, onlyChanged].forEach(function (el) { el.addEventListener("change", applyFilters); });
  applyFilters();

  var list = document.getElementById("changes");
  if (!data.changes.length) {
    var none = document.createElement("tr");
    none.innerHTML = "<td colspan=\"7\">none</td>";
    list.appendChild(none);
  }
  data.changes.forEach(function (c) {
    var tr = document.createElement("tr");
    [c.bench, c.series, c.figure, c.before, c.after, c.change, c.method].forEach(function (t, i) {
      var td = document.createElement("td");
      if (i === 0) {
        var a = document.createElement("a");
        a.href = "#" + c.chart;
        a.textContent = t;
        td.appendChild(a);
      } else {
        td.textContent = t;
      }
      tr.appendChild(td);
    });
    list.appendChild(tr);
  });
  document.body.setAttribute("data-charts", String(cards.length));
  document.body.setAttribute("data-ready", "1");
})();

// The admin page's history charts: inline SVG drawn from the JSON of
// GET /admin/api/rooms/{room}/history. No library and no markup strings: every element is made with
// createElementNS and every value set as text or attribute, so the page's strict
// Content-Security-Policy holds; colours and dashes come from classes in admin.css.
var AnteroomCharts = (function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg"; // the SVG namespace's name; nothing is loaded from it
  var HEIGHT = 150; // as .chart .plot's min-height in admin.css
  var PAD = { top: 10, right: 12, bottom: 22, left: 40 };
  var TICK_MS = 5 * 60 * 1000;
  var GAP_INTERVALS = 2.5; // samples further apart than this (no worker ran) are not joined
  var LINE = [["waiting", "Waiting"], ["running", "Running"], ["finished", "Finished"]];
  var UNITS = { ms: [1, "millisecond"], s: [1000, "second"], m: [60000, "minute"], h: [3600000, "hour"] };

  function svg(tag, attributes, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) { node.textContent = String(text); }
    return node;
  }

  function html(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = String(text); }
    return node;
  }

  // "5s", "15m" as [amount, unit], or null.
  function duration(text) {
    var match = /^(\d+)(ms|s|m|h)$/.exec(text || "");
    return match ? [Number(match[1]), UNITS[match[2]]] : null;
  }

  function millis(text, fallback) {
    var parsed = duration(text);
    return parsed ? parsed[0] * parsed[1][0] : fallback;
  }

  // "15m" as "15 minutes", for captions and screen readers.
  function words(text) {
    var parsed = duration(text);
    return parsed ? parsed[0] + " " + parsed[1][1] + (parsed[0] === 1 ? "" : "s") : text;
  }

  // Up to two decimals, without trailing zeros: 12, 0.67, 2.5.
  function number(value) { return String(Math.round(value * 100) / 100); }

  function present(value) { return value !== null && value !== undefined; }

  // The smallest round number (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) that is at
  // least value; 1 for nothing.
  function ceiling(value) {
    if (!(value > 0)) { return 1; }
    var power = Math.pow(10, Math.floor(Math.log10(value)));
    var steps = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
    for (var i = 0; i < steps.length; i++) {
      if (steps[i] * power >= value) { return steps[i] * power; }
    }
    return 10 * power;
  }

  function clock(ms, seconds) {
    var parts = { hour: "2-digit", minute: "2-digit" };
    if (seconds) { parts.second = "2-digit"; }
    return new Date(ms).toLocaleTimeString([], parts);
  }

  // Times of the samples and the window shown: the span up to the end of the latest interval.
  function timeline(history) {
    var times = history.samples.map(function (sample) { return Date.parse(sample.at); });
    var interval = millis(history.interval, 5000);
    var end = times.length ? times[times.length - 1] + interval : Date.now();
    return { times: times, interval: interval, end: end, start: end - millis(history.span, 900000) };
  }

  // An empty chart of width px with axes for [0, yMax]; returns the svg and the scales.
  function frame(width, line, yMax, summary) {
    var left = PAD.left;
    var right = Math.max(width - PAD.right, left + 10);
    var bottom = HEIGHT - PAD.bottom;
    var chart = {
      x: function (ms) { return left + (right - left) * (ms - line.start) / (line.end - line.start); },
      y: function (value) { return PAD.top + (bottom - PAD.top) * (1 - value / yMax); },
      middle: [(left + right) / 2, (PAD.top + bottom) / 2],
      svg: svg("svg", { role: "img", "aria-label": summary, width: width, height: HEIGHT,
        viewBox: "0 0 " + width + " " + HEIGHT })
    };
    chart.svg.appendChild(svg("title", {}, summary));
    [0, yMax / 2, yMax].forEach(function (value) {
      var y = chart.y(value);
      chart.svg.appendChild(svg("line", { "class": "grid", x1: left, x2: right, y1: y, y2: y }));
      chart.svg.appendChild(svg("text", { "class": "axis", x: left - 6, y: y + 4, "text-anchor": "end" },
        number(value)));
    });
    for (var tick = Math.ceil(line.start / TICK_MS) * TICK_MS; tick <= line.end; tick += TICK_MS) {
      var x = chart.x(tick);
      chart.svg.appendChild(svg("line", { "class": "grid", x1: x, x2: x, y1: PAD.top, y2: bottom }));
      chart.svg.appendChild(svg("text", { "class": "axis", x: x, y: HEIGHT - 6, "text-anchor": "middle" },
        clock(tick)));
    }
    return chart;
  }

  // A line of text in the middle of the plot, for a chart with nothing to show.
  function note(chart, text) {
    chart.svg.appendChild(svg("text", { "class": "note", x: chart.middle[0], y: chart.middle[1],
      "text-anchor": "middle" }, text));
  }

  // One series as polylines, broken where samples are missing; a lone point is a dot.
  function plot(chart, line, values, name) {
    var segment = [];
    var previous = null;
    function flush() {
      var kind = { "class": "series series-" + name, "data-series": name };
      if (segment.length === 1) {
        kind.cx = segment[0][0];
        kind.cy = segment[0][1];
        kind.r = 2;
        chart.svg.appendChild(svg("circle", kind));
      } else if (segment.length > 1) {
        kind.points = segment.map(function (p) { return p[0].toFixed(1) + "," + p[1].toFixed(1); })
          .join(" ");
        chart.svg.appendChild(svg("polyline", kind));
      }
      segment = [];
    }
    values.forEach(function (value, i) {
      if (!present(value)) { return; }
      var at = line.times[i];
      if (previous !== null && at - previous > GAP_INTERVALS * line.interval) { flush(); }
      segment.push([chart.x(at), chart.y(value)]);
      previous = at;
    });
    flush();
  }

  // A figure with its caption, a place for the svg and a legend of [series, text] entries.
  function figure(kind, title, summary, legend) {
    var node = html("figure", "chart chart-" + kind);
    node.appendChild(html("figcaption", "", title));
    var area = html("div", "plot");
    node.appendChild(area);
    var list = html("ul", "legend");
    legend.forEach(function (entry) {
      var item = html("li", "");
      item.appendChild(html("span", "swatch swatch-" + entry[0]));
      item.appendChild(document.createTextNode(entry[1]));
      list.appendChild(item);
    });
    node.appendChild(list);
    return { node: node, area: area };
  }

  // Waiting, running and finished over the span.
  function lineChart(history, line) {
    var latest = history.samples[history.samples.length - 1];
    var span = words(history.span);
    var summary = "Room " + history.room + ", last " + span + ": " + (latest
      ? latest.waiting + " waiting, " + latest.running + " running, " + latest.finished +
        " finished at " + clock(line.times[line.times.length - 1], true) + "."
      : "no samples yet.");
    var chart = figure("line", "Line, last " + span, summary, LINE.map(function (series) {
      return [series[0], series[1] + (latest ? " " + latest[series[0]] : "")];
    }));
    chart.draw = function (width) {
      var top = 0;
      history.samples.forEach(function (s) { top = Math.max(top, s.waiting, s.running, s.finished); });
      var drawn = frame(width, line, ceiling(top), summary);
      LINE.forEach(function (series) {
        plot(drawn, line, history.samples.map(function (s) { return s[series[0]]; }), series[0]);
      });
      if (!latest) { note(drawn, "No samples yet"); }
      return drawn.svg;
    };
    return chart;
  }

  // Admitted per second between samples, and the rate the room is set to as a dashed line.
  function rateChart(history, line) {
    var rates = history.samples.map(function (s) { return s.admittedPerSecond; });
    var latest = null;
    rates.forEach(function (rate, i) { if (present(rate)) { latest = i; } });
    var set = number(history.admitPerSecond);
    var summary = "Room " + history.room + ", last " + words(history.span) + ": " + (latest === null
      ? "no admission rate measured yet"
      : number(rates[latest]) + " admitted per second at " + clock(line.times[latest], true)) +
      "; rate set to " + set + " per second.";
    var chart = figure("rate", "Admitted per second", summary, [
      ["rate", "Admitted/s" + (latest === null ? "" : " " + number(rates[latest]))],
      ["set", "Rate set " + set + "/s"]]);
    chart.draw = function (width) {
      var top = history.admitPerSecond;
      rates.forEach(function (rate) { if (present(rate)) { top = Math.max(top, rate); } });
      var drawn = frame(width, line, ceiling(top * 1.1), summary);
      var y = drawn.y(history.admitPerSecond);
      drawn.svg.appendChild(svg("line", { "class": "series series-set", "data-series": "set",
        x1: drawn.x(line.start), x2: drawn.x(line.end), y1: y, y2: y }));
      plot(drawn, line, rates, "rate");
      if (latest === null) { note(drawn, "No rate measured yet"); }
      return drawn.svg;
    };
    return chart;
  }

  // Replaces what container shows with both charts of history, each drawn as wide as its place.
  function render(container, history) {
    var line = timeline(history);
    var charts = [lineChart(history, line), rateChart(history, line)];
    container.replaceChildren.apply(container, charts.map(function (chart) { return chart.node; }));
    charts.forEach(function (chart) {
      chart.area.replaceChildren(chart.draw(Math.max(chart.area.clientWidth, 200)));
    });
  }

  return { render: render };
})();

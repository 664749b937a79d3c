package io.anteroom.simulator;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws a simulation's runs as one PNG with JFreeChart: people waiting, sessions running, and the
 * wait of those who arrived at each moment, over the same time axis, one line per run.
 */
public final class Charts {

  static final int WIDTH = 1200;
  static final int HEIGHT = 900;

  /** A run's colour, by its place in the comparison. */
  private static final Color[] COLOURS = {
    new Color(0x1f77b4),
    new Color(0xd62728),
    new Color(0x2ca02c),
    new Color(0xff7f0e),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0xe377c2),
    new Color(0x7f7f7f)
  };

  /** Most points a line is drawn with; longer timelines are thinned evenly. */
  private static final int MOST_POINTS = 2000;

  private Charts() {}

  /** Writes the chart of {@code runs} to {@code file}, a PNG. */
  public static void write(Path file, String title, List<Outcome> runs) throws IOException {
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("minutes from the start"));
    plot.setGap(12);
    XYPlot waiting = plot("people waiting", runs, Charts::waiting);
    plot.add(waiting, 1);
    plot.add(plot("sessions running", runs, Charts::active), 1);
    plot.add(plot("wait of those arriving then (minutes)", runs, Charts::waitByArrival), 1);
    // One legend entry a run: the lines of a run have the same colour in every plot.
    plot.setFixedLegendItems(waiting.getLegendItems());
    JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, runs.size() > 1);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
  }

  private interface Series {
    XYSeries of(Outcome run);
  }

  private static XYPlot plot(String name, List<Outcome> runs, Series series) {
    XYSeriesCollection data = new XYSeriesCollection();
    runs.forEach(run -> data.addSeries(series.of(run)));
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
    for (int i = 0; i < runs.size(); i++) {
      renderer.setSeriesStroke(i, new BasicStroke(2f));
      renderer.setSeriesPaint(i, COLOURS[i % COLOURS.length]);
    }
    NumberAxis axis = new NumberAxis(name);
    axis.setAutoRangeIncludesZero(true);
    XYPlot plot = new XYPlot(data, null, axis, renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    return plot;
  }

  private static XYSeries waiting(Outcome run) {
    Timeline t = run.timeline();
    XYSeries series = new XYSeries(run.label(), false, true);
    int step = Math.max(1, t.size() / MOST_POINTS);
    for (int i = 0; i < t.size(); i += step) {
      series.add(t.second(i) / 60.0, t.waiting(i));
    }
    return series;
  }

  private static XYSeries active(Outcome run) {
    Timeline t = run.timeline();
    XYSeries series = new XYSeries(run.label(), false, true);
    int step = Math.max(1, t.size() / MOST_POINTS);
    for (int i = 0; i < t.size(); i += step) {
      series.add(t.second(i) / 60.0, t.active(i));
    }
    return series;
  }

  private static XYSeries waitByArrival(Outcome run) {
    XYSeries series = new XYSeries(run.label(), false, true);
    double[] mean = run.waitByArrival();
    double span = run.arrivalSpan() / 60_000.0;
    for (int s = 0; s < mean.length; s++) {
      if (mean[s] >= 0) {
        series.add(span * (s + 0.5) / mean.length, mean[s] / 60_000.0);
      }
    }
    return series;
  }
}

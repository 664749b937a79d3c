package io.anteroom.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** Median, minimum and maximum of one figure over the measured rounds. */
record Spread(double median, double min, double max) {

  static <T> Spread of(List<T> rounds, ToDoubleFunction<T> figure) {
    double[] values = rounds.stream().mapToDouble(figure).sorted().toArray();
    if (values.length == 0) {
      throw new IllegalArgumentException("no rounds");
    }
    int middle = values.length / 2;
    double median =
        values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    return new Spread(median, values[0], values[values.length - 1]);
  }
}

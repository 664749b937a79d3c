package io.anteroom.queue.origin;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What a room's origin did with the pass holders' requests over some time, as one gateway saw it or
 * summed over several: how many answers, how many were 5xx, how many never came (a refused
 * connection, a timeout), and how long the answers took, as an HdrHistogram of microseconds. The
 * histograms of several gateways and seconds add up exactly, so percentiles of the sum are those of
 * all answers together.
 *
 * @param answers every request timed, failures included
 * @param serverErrors answers with a 5xx status
 * @param failures requests that got no answer
 * @param latency the answers' times in microseconds (not of the failures)
 */
public record OriginFigures(long answers, long serverErrors, long failures, Histogram latency) {

  /** The longest answer time a histogram tells apart from longer ones: one minute. */
  public static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(1);

  /** Two significant digits: a percentile is within 1 % of the true value. */
  public static final int DIGITS = 2;

  /** Nothing measured. */
  public static OriginFigures none() {
    return new OriginFigures(0, 0, 0, histogram());
  }

  /** An empty histogram in the layout every gateway and worker uses. */
  public static Histogram histogram() {
    return new Histogram(HIGHEST_MICROS, DIGITS);
  }

  /** The share of answers that were 5xx or failed, 0 when there were none. */
  public double errorShare() {
    return answers == 0 ? 0 : (double) (serverErrors + failures) / answers;
  }

  /** The answer time below which {@code percentile} (0–100) of the answers came, in ms. */
  public double percentileMillis(double percentile) {
    return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(percentile) / 1000.0;
  }

  /** These figures and {@code other} together, in a new record. */
  public OriginFigures plus(OriginFigures other) {
    Histogram sum = latency.copy();
    sum.add(other.latency);
    return new OriginFigures(
        answers + other.answers, serverErrors + other.serverErrors, failures + other.failures, sum);
  }

  /** The stored form: {@code answers:serverErrors:failures:histogram} (compressed, base64). */
  public String encode() {
    ByteBuffer buffer = ByteBuffer.allocate(latency.getNeededByteBufferCapacity());
    int length = latency.encodeIntoCompressedByteBuffer(buffer);
    byte[] bytes = new byte[length];
    buffer.flip();
    buffer.get(bytes);
    return answers
        + ":"
        + serverErrors
        + ":"
        + failures
        + ":"
        + Base64.getEncoder().encodeToString(bytes);
  }

  /**
   * The figures stored as {@code text}.
   *
   * @throws IllegalArgumentException when {@code text} is not a stored form
   */
  public static OriginFigures decode(String text) {
    String[] parts = text == null ? new String[0] : text.split(":", -1);
    if (parts.length != 4) {
      throw new IllegalArgumentException("not origin figures: " + text);
    }
    try {
      long answers = Long.parseLong(parts[0]);
      long serverErrors = Long.parseLong(parts[1]);
      long failures = Long.parseLong(parts[2]);
      if (answers < 0 || serverErrors < 0 || failures < 0 || serverErrors + failures > answers) {
        throw new IllegalArgumentException("counts out of range: " + text);
      }
      ByteBuffer buffer = ByteBuffer.wrap(Base64.getDecoder().decode(parts[3]));
      Histogram latency = Histogram.decodeFromCompressedByteBuffer(buffer, HIGHEST_MICROS);
      Histogram layout = histogram();
      layout.add(latency);
      return new OriginFigures(answers, serverErrors, failures, layout);
    } catch (DataFormatException | RuntimeException e) {
      throw new IllegalArgumentException("not origin figures: " + e.getMessage(), e);
    }
  }
}

package io.anteroom.gateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of {@code /actuator/prometheus}: each series (name and labels) and its value. */
final class Scrape {

  private static final Pattern SAMPLE =
      Pattern.compile(
          "^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(?:[^\"}]|\"(?:[^\"\\\\]|\\\\.)*\")*\\})?\\s+(\\S+)$");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** A series: metric name and labels. */
  record Series(String name, Map<String, String> labels) {}

  private final Map<Series, Double> samples;

  private Scrape(Map<Series, Double> samples) {
    this.samples = samples;
  }

  /** Scrapes {@code http://127.0.0.1:<port>/actuator/prometheus}. */
  static Scrape of(int port) {
    HttpResponse<String> response;
    try {
      response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    assertThat(response.statusCode()).as("scrape of port " + port).isEqualTo(200);
    return parse(response.body());
  }

  static Scrape parse(String text) {
    Map<Series, Double> samples = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line.trim());
      if (!m.matches()) {
        throw new AssertionError("not a sample line: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher label = LABEL.matcher(m.group(2));
        while (label.find()) {
          labels.put(label.group(1), label.group(2));
        }
      }
      samples.put(new Series(m.group(1), labels), Double.parseDouble(m.group(3)));
    }
    return new Scrape(samples);
  }

  /** The metric names present. */
  Set<String> names() {
    Set<String> names = new TreeSet<>();
    samples.keySet().forEach(series -> names.add(series.name()));
    return names;
  }

  Map<Series, Double> samples() {
    return samples;
  }

  /**
   * The sum of the series of {@code name} whose labels include {@code labels} (name, value pairs);
   * 0 when there is none.
   */
  double sum(String name, String... labels) {
    return samples.entrySet().stream()
        .filter(e -> e.getKey().name().equals(name) && matches(e.getKey().labels(), labels))
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  private static boolean matches(Map<String, String> labels, String[] wanted) {
    for (int i = 0; i < wanted.length; i += 2) {
      if (!wanted[i + 1].equals(labels.get(wanted[i]))) {
        return false;
      }
    }
    return true;
  }
}

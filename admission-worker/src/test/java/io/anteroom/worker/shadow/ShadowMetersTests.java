package io.anteroom.worker.shadow;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.ExpireResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.shadow.WaitQuantiles;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shadow gauges as Prometheus scrapes them, and their bound on series per room. */
class ShadowMetersTests {

  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  final ShadowMeters meters = new ShadowMeters(Set.of("shop"), 2, registry);

  void observe(String item, long waiting) {
    meters.observe(
        QueueId.of("shop", item),
        new ExpireResult(0, 0, waiting, 7, 0, 0),
        new WaitQuantiles(Duration.ofMillis(1500), Duration.ofSeconds(4), 100));
  }

  @Test
  void publishWhenQueuesAreInShadowModeThenScrapesWaitingActiveAndWaitQuantiles() {
    observe("42", 12);
    meters.publish(List.of(QueueId.of("shop", "42")));

    String scrape = registry.scrape();
    assertThat(scrape)
        .contains("anteroom_shadow_waiting{queue=\"42\",room=\"shop\"} 12.0")
        .contains("anteroom_shadow_active{queue=\"42\",room=\"shop\"} 7.0")
        .contains("anteroom_shadow_wait_seconds{quantile=\"0.5\",queue=\"42\",room=\"shop\"} 1.5")
        .contains("anteroom_shadow_wait_seconds{quantile=\"0.9\",queue=\"42\",room=\"shop\"} 4.0");
  }

  @Test
  void publishWhenMoreQueuesThanTheBoundThenShowsTheLongestVirtualLines() {
    observe("a", 1);
    observe("b", 30);
    observe("c", 20);
    meters.publish(
        List.of(QueueId.of("shop", "a"), QueueId.of("shop", "b"), QueueId.of("shop", "c")));

    assertThat(registry.find("anteroom.shadow.waiting").gauges())
        .extracting(gauge -> gauge.getId().getTag("queue"))
        .containsExactlyInAnyOrder("b", "c");
  }

  @Test
  void publishWhenAQueueIsNoLongerOnThenDropsItsSeries() {
    observe("42", 12);
    meters.publish(List.of(QueueId.of("shop", "42")));
    meters.publish(List.of());

    assertThat(registry.find("anteroom.shadow.waiting").gauges()).isEmpty();
    assertThat(registry.scrape()).doesNotContain("anteroom_shadow_wait_seconds{");
  }
}

package io.anteroom.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Puts an {@code *IntegrationTests} class in the system tier: many instances, outages, failovers,
 * Sentinel or Cluster, browsers, long multi-process runs. {@code ./mvnw verify} runs the tier with
 * the integration tier; {@code -Dtier=system} runs it alone (README, "Tests").
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag(SystemTest.TAG)
public @interface SystemTest {

  /** The JUnit tag the build selects the tier by. */
  String TAG = "system";
}

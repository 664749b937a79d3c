package io.anteroom.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Puts an {@code *IntegrationTests} class among the full-size attacks: minutes of work each, run
 * only when asked ({@code -Dtier=attack}, or {@code bench/attacks.sh}), never by {@code ./mvnw
 * verify}. Each records its figures with {@link AttackFigures}; its scaled-down sibling runs in the
 * integration tier.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag(AttackTest.TAG)
public @interface AttackTest {

  /** The JUnit tag the build selects the attacks by. */
  String TAG = "attack";
}

package io.anteroom.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A {@link SystemTest} whose outcome depends on how fast the machine serves it: requests a second
 * or admissions a second measured on the real clock. The build runs these
 * classes after the rest of the system tier, one at a time, with no other test JVM beside them.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SystemTest
@Tag(TimingSensitive.TAG)
public @interface TimingSensitive {

  /** The JUnit tag the build selects these classes by. */
  String TAG = "timing";
}

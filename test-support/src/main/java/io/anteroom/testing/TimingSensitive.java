package io.anteroom.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An integration or system test whose outcome depends on how fast the machine serves it: requests
 * or admissions a second measured on the real clock, or a fetch that must answer within its
 * timeout. The build runs these classes after the rest of their tier, one at a time, with no other
 * test JVM beside them.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag(TimingSensitive.TAG)
public @interface TimingSensitive {

  /** The JUnit tag the build selects these classes by. */
  String TAG = "timing";
}

package io.anteroom.queue.config;

import io.anteroom.queue.policy.Durations;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.ConversionException;

/**
 * Binds every {@link Duration} setting under {@code anteroom.} with {@link Durations}: the value
 * must carry its unit, and a bad one stops start-up with a message naming the property ({@code
 * anteroom.worker.tick: must be a whole number with a unit …}).
 *
 * <p>A bind handler rather than a {@code @ConfigurationPropertiesBinding} converter: when such a
 * converter refuses a value, Spring tries its own, which reads {@code 500} (or a YAML number) as
 * milliseconds and also takes {@code PT0.5S} or {@code -1s}. The handler reads the value as
 * written, placeholders resolved, whatever Spring made of it.
 */
@Configuration(proxyBeanMethods = false)
public class DurationBinding {

  private static final ConfigurationPropertyName ANTEROOM =
      ConfigurationPropertyName.of("anteroom");

  /** Static: the binding post-processor looks it up before other beans exist. */
  @Bean
  static ConfigurationPropertiesBindHandlerAdvisor anteroomDurations() {
    return UnitDurations::new;
  }

  /** A binder over {@code sources} that reads durations as the apps do, for binding by hand. */
  public static Binder binder(ConfigurationPropertySource... sources) {
    return new Binder(List.of(sources), null, null, null, new UnitDurations(BindHandler.DEFAULT));
  }

  /**
   * {@code text} read by {@link Durations#parse}.
   *
   * @throws IllegalArgumentException {@code <property>: <what is wrong>}
   */
  public static Duration parse(String property, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      // No cause: the message says it all, and is then the root cause a start-up failure shows.
      throw new IllegalArgumentException(property + ": " + e.getMessage());
    }
  }

  private static final class UnitDurations extends AbstractBindHandler {

    UnitDurations(BindHandler parent) {
      super(parent);
    }

    @Override
    public Object onSuccess(
        ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result) {
      return super.onSuccess(
          name,
          target,
          context,
          isAnteroomDuration(name, target, context) ? read(name, context) : result);
    }

    @Override
    public Object onFailure(
        ConfigurationPropertyName name, Bindable<?> target, BindContext context, Exception error)
        throws Exception {
      if (error instanceof ConversionException && isAnteroomDuration(name, target, context)) {
        return read(name, context);
      }
      return super.onFailure(name, target, context, error);
    }

    private static boolean isAnteroomDuration(
        ConfigurationPropertyName name, Bindable<?> target, BindContext context) {
      return ANTEROOM.isAncestorOf(name)
          && Duration.class.equals(target.getType().resolve())
          && context.getConfigurationProperty() != null;
    }

    /** The value as text, as the same binder resolves it (placeholders, YAML numbers). */
    private static Duration read(ConfigurationPropertyName name, BindContext context) {
      String text = context.getBinder().bind(name, Bindable.of(String.class)).orElse(null);
      return parse(name.toString(), text);
    }
  }
}

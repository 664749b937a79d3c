package io.anteroom.queue.config;

import java.util.List;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Stops start-up, before any bean is made, when the configuration holds {@code anteroom.*} keys
 * that the app does not read ({@link SettingNames}): a setting that is silently ignored is worse
 * than one refused. Declare it as a {@code static} bean so it runs that early.
 */
public final class UnknownSettingsCheck implements BeanFactoryPostProcessor, EnvironmentAware {

  private final SettingNames names;
  private Environment environment;

  public UnknownSettingsCheck(SettingNames names) {
    this.names = names;
  }

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  /**
   * @throws IllegalStateException listing every unknown key with the nearest known one
   */
  @Override
  public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
    List<String> unknown = names.unknown(environment);
    if (!unknown.isEmpty()) {
      throw new IllegalStateException(
          "unknown settings in the anteroom configuration:\n  " + String.join("\n  ", unknown));
    }
  }
}

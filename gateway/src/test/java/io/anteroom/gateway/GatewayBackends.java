package io.anteroom.gateway;

import io.anteroom.testing.FreePorts;
import io.anteroom.testing.LatencyProxy;
import io.anteroom.testing.redis.RedisServerExtension;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Points a {@link GatewayIntegrationTest}'s gateway at the Redis and origin its test class declares
 * in static fields, read when the context starts (after the extensions started them), ahead of
 * every other property source. A static {@link LatencyProxy} field, when there is one, stands
 * between the gateway and that Redis: the gateway is given the proxy's address.
 *
 * <p>The customizer equals only that of the same test class, so Spring's context cache never hands
 * one class's context, wired to servers that have stopped since, to another class.
 */
final class GatewayBackends implements ContextCustomizerFactory {

  @Override
  public ContextCustomizer createContextCustomizer(
      Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
    GatewayIntegrationTest settings =
        TestContextAnnotationUtils.findMergedAnnotation(testClass, GatewayIntegrationTest.class);
    if (settings == null) {
      return null;
    }
    return new Customizer(outermost(testClass), settings.fixedManagementPort());
  }

  // Nested classes share the fields, the servers and so the context of the class around them.
  private static Class<?> outermost(Class<?> testClass) {
    Class<?> outer = testClass;
    while (outer.getEnclosingClass() != null && !Modifier.isStatic(outer.getModifiers())) {
      outer = outer.getEnclosingClass();
    }
    return outer;
  }

  private record Customizer(Class<?> testClass, boolean fixedManagementPort)
      implements ContextCustomizer {

    @Override
    public void customizeContext(
        ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
      Map<String, Object> properties = new LinkedHashMap<>();
      RedisServerExtension redis = staticField(RedisServerExtension.class);
      LatencyProxy proxy = staticField(LatencyProxy.class);
      if (proxy != null) {
        properties.put("anteroom.redis.uri", proxy.redisUri());
      } else if (redis != null) {
        properties.put("anteroom.redis.uri", redis.uri());
      }
      WireMockOrigin origin = staticField(WireMockOrigin.class);
      if (origin != null) {
        properties.put("ANTEROOM_ORIGIN", origin.url());
      }
      if (fixedManagementPort) {
        properties.put("management.server.port", FreePorts.pick());
      }
      context
          .getEnvironment()
          .getPropertySources()
          .addFirst(new MapPropertySource("gatewayTestBackends", properties));
    }

    private <T> T staticField(Class<T> type) {
      T found = null;
      for (Field field : testClass.getDeclaredFields()) {
        if (Modifier.isStatic(field.getModifiers()) && type.isAssignableFrom(field.getType())) {
          if (found != null) {
            throw new IllegalStateException(
                testClass.getName() + " declares more than one static " + type.getSimpleName());
          }
          found = type.cast(read(field));
        }
      }
      return found;
    }

    private static Object read(Field field) {
      try {
        field.setAccessible(true);
        return field.get(null);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + field, e);
      }
    }
  }
}

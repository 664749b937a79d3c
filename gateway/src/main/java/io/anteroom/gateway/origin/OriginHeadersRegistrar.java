package io.anteroom.gateway.origin;

import java.util.List;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Puts {@link OriginHeaders} in place of Spring Cloud Gateway's header filters that copy every
 * header: those of them the framework registered are removed, and one {@code OriginHeaders} per
 * direction does their work. {@code anteroom.gateway.framework-header-filters=true} keeps the
 * framework's own filters instead (the same headers reach the origin, at four copies a request).
 *
 * <p>The framework registers a filter removing {@code Forwarded} only while it does not add the
 * header itself (its own trusted proxies), and the same for {@code X-Forwarded-*}; the gRPC filter
 * only while {@code server.http2.enabled} is not false. {@code OriginHeaders} removes or adds
 * exactly what the filters found here did, so turning one of those settings on keeps working.
 */
public final class OriginHeadersRegistrar
    implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {

  /** Keeps Spring Cloud Gateway's own header filters when true. */
  public static final String FRAMEWORK_FILTERS = "anteroom.gateway.framework-header-filters";

  static final String REMOVE_FORWARDED = "removeForwardedHeadersFilter";
  static final String REMOVE_X_FORWARDED = "removeXForwardedHeadersFilter";
  static final String REMOVE_HOP_BY_HOP = "removeHopByHopHeadersFilter";
  static final String GRPC_REQUEST = "gRPCRequestHeadersFilter";

  private Environment environment;

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  @Override
  public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
    if (environment.getProperty(FRAMEWORK_FILTERS, Boolean.class, false)
        || !registry.containsBeanDefinition(REMOVE_HOP_BY_HOP)) {
      return;
    }
    boolean forwarded = registry.containsBeanDefinition(REMOVE_FORWARDED);
    boolean xForwarded = registry.containsBeanDefinition(REMOVE_X_FORWARDED);
    boolean grpc = registry.containsBeanDefinition(GRPC_REQUEST);
    for (String name :
        List.of(REMOVE_FORWARDED, REMOVE_X_FORWARDED, REMOVE_HOP_BY_HOP, GRPC_REQUEST)) {
      if (registry.containsBeanDefinition(name)) {
        registry.removeBeanDefinition(name);
      }
    }
    registry.registerBeanDefinition(
        "originRequestHeaders",
        new RootBeanDefinition(
            OriginHeaders.class, () -> OriginHeaders.requests(forwarded, xForwarded, grpc)));
    registry.registerBeanDefinition(
        "originAnswerHeaders", new RootBeanDefinition(OriginHeaders.class, OriginHeaders::answers));
  }
}

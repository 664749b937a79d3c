package io.anteroom.gateway.origin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.cloud.gateway.filter.headers.GRPCRequestHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveXForwardedHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

/**
 * {@link OriginHeadersRegistrar} swaps exactly the framework's copying header filters it finds for
 * {@link OriginHeaders} doing their work, and leaves them alone when told to.
 */
class OriginHeadersRegistrarTests {

  @Test
  void replacesTheFourCopyingFiltersWithOneCopyPerDirection() {
    DefaultListableBeanFactory beans = frameworkBeans(true, true, true);

    registrar(new MockEnvironment()).postProcessBeanDefinitionRegistry(beans);

    assertThat(beans.getBeansOfType(HttpHeadersFilter.class).values())
        .hasSize(2)
        .allMatch(filter -> filter instanceof OriginHeaders);
    HttpHeaders toOrigin = request(beans);
    assertThat(toOrigin.headerNames()).containsExactlyInAnyOrder("Accept", "Content-Type", "te");
  }

  @Test
  void removesOnlyWhatTheFiltersFoundRemoved() {
    DefaultListableBeanFactory beans = frameworkBeans(false, true, false);

    registrar(new MockEnvironment()).postProcessBeanDefinitionRegistry(beans);

    HttpHeaders toOrigin = request(beans);
    assertThat(toOrigin.headerNames())
        .as("Forwarded is kept where the framework kept it, and no gRPC trailers are added")
        .containsExactlyInAnyOrder("Accept", "Content-Type", "Forwarded");
  }

  @Test
  void keepsTheFrameworksFiltersWhenTold() {
    DefaultListableBeanFactory beans = frameworkBeans(true, true, true);
    MockEnvironment environment =
        new MockEnvironment().withProperty(OriginHeadersRegistrar.FRAMEWORK_FILTERS, "true");

    registrar(environment).postProcessBeanDefinitionRegistry(beans);

    assertThat(beans.getBeanNamesForType(HttpHeadersFilter.class))
        .containsExactlyInAnyOrder(
            OriginHeadersRegistrar.REMOVE_FORWARDED,
            OriginHeadersRegistrar.REMOVE_X_FORWARDED,
            OriginHeadersRegistrar.REMOVE_HOP_BY_HOP,
            OriginHeadersRegistrar.GRPC_REQUEST);
  }

  private static OriginHeadersRegistrar registrar(MockEnvironment environment) {
    OriginHeadersRegistrar registrar = new OriginHeadersRegistrar();
    registrar.setEnvironment(environment);
    return registrar;
  }

  /** The framework's header filter beans, under the names its auto-configuration gives them. */
  private static DefaultListableBeanFactory frameworkBeans(
      boolean forwarded, boolean xForwarded, boolean grpc) {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    beans.registerBeanDefinition(
        OriginHeadersRegistrar.REMOVE_HOP_BY_HOP,
        new RootBeanDefinition(RemoveHopByHopHeadersFilter.class));
    if (forwarded) {
      beans.registerBeanDefinition(
          OriginHeadersRegistrar.REMOVE_FORWARDED,
          new RootBeanDefinition(RemoveForwardedHeadersFilter.class));
    }
    if (xForwarded) {
      beans.registerBeanDefinition(
          OriginHeadersRegistrar.REMOVE_X_FORWARDED,
          new RootBeanDefinition(RemoveXForwardedHeadersFilter.class));
    }
    if (grpc) {
      beans.registerBeanDefinition(
          OriginHeadersRegistrar.GRPC_REQUEST,
          new RootBeanDefinition(GRPCRequestHeadersFilter.class));
    }
    return beans;
  }

  /** A gRPC request with forwarded and hop-by-hop headers, through the registered filters. */
  private static HttpHeaders request(DefaultListableBeanFactory beans) {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(
            MockServerHttpRequest.post("/products/1")
                .header("Accept", "application/grpc")
                .header("Content-Type", "application/grpc")
                .header("Forwarded", "for=203.0.113.9")
                .header("X-Forwarded-For", "203.0.113.9")
                .header("Keep-Alive", "timeout=5"));
    List<HttpHeadersFilter> filters =
        List.copyOf(beans.getBeansOfType(HttpHeadersFilter.class).values());
    return HttpHeadersFilter.filterRequest(filters, exchange);
  }
}

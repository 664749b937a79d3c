package io.anteroom.gateway.origin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.gateway.filter.headers.GRPCRequestHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter.Type;
import org.springframework.cloud.gateway.filter.headers.RemoveForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveXForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.TransferEncodingNormalizationHeadersFilter;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

/**
 * The origin gets the same headers from {@link OriginHeaders}' one copy as from the framework's
 * filters it replaces, in both directions: the same names, values and order.
 */
class OriginHeadersTests {

  private static final List<String> NAMES =
      List.of(
          "Accept",
          "accept-language",
          "Cookie",
          "X-Custom",
          "x-other",
          "Forwarded",
          "FORWARDED",
          "X-Forwarded-For",
          "x-forwarded-proto",
          "X-Forwarded",
          "X-Forwardedfor",
          "Connection",
          "connection",
          "Keep-Alive",
          "Transfer-Encoding",
          "Content-Length",
          "TE",
          "Trailer",
          "Proxy-Authorization",
          "Proxy-Authenticate",
          "X-Application-Context",
          "Upgrade",
          "Content-Type",
          "Anteroom-Bypass");

  private static final List<String> VALUES =
      List.of(
          "1",
          "close",
          "keep-alive, X-Custom",
          " x-other ,TE",
          "Upgrade,,Accept",
          "chunked",
          " Chunked ",
          "application/grpc",
          "Application/GRPC+proto",
          "text/html",
          "a=1; b=2");

  @Test
  void requestsLoseAndGainWhatTheFrameworkFiltersDid() {
    Random random = new Random(22);
    for (int i = 0; i < 2_000; i++) {
      HttpHeaders input = randomHeaders(random);
      MockServerWebExchange exchange = exchangeWith(input);
      for (int variant = 0; variant < 8; variant++) {
        boolean forwarded = (variant & 1) != 0;
        boolean xForwarded = (variant & 2) != 0;
        boolean grpc = (variant & 4) != 0;
        List<HttpHeadersFilter> framework = new ArrayList<>();
        framework.add(new TransferEncodingNormalizationHeadersFilter());
        framework.add(new RemoveHopByHopHeadersFilter());
        if (forwarded) {
          framework.add(new RemoveForwardedHeadersFilter());
        }
        if (xForwarded) {
          framework.add(new RemoveXForwardedHeadersFilter());
        }
        if (grpc) {
          framework.add(new GRPCRequestHeadersFilter());
        }
        List<HttpHeadersFilter> oneCopy =
            List.of(
                new TransferEncodingNormalizationHeadersFilter(),
                OriginHeaders.requests(forwarded, xForwarded, grpc));

        assertThat(entries(filter(framework, exchange, Type.REQUEST)))
            .as(
                "request %s, forwarded %s, x-forwarded %s, grpc %s",
                input, forwarded, xForwarded, grpc)
            .isEqualTo(entries(filter(oneCopy, exchange, Type.REQUEST)));
      }
    }
  }

  @Test
  void answersLoseTheHopByHopHeadersOnly() {
    Random random = new Random(23);
    for (int i = 0; i < 2_000; i++) {
      HttpHeaders answer = randomHeaders(random);
      MockServerWebExchange exchange = exchangeWith(randomHeaders(random));
      List<HttpHeadersFilter> framework =
          List.of(
              new TransferEncodingNormalizationHeadersFilter(),
              new RemoveHopByHopHeadersFilter(),
              new RemoveForwardedHeadersFilter(),
              new RemoveXForwardedHeadersFilter(),
              new GRPCRequestHeadersFilter());
      List<HttpHeadersFilter> oneCopy =
          List.of(
              new TransferEncodingNormalizationHeadersFilter(),
              OriginHeaders.requests(true, true, true),
              OriginHeaders.answers());

      assertThat(entries(filter(framework, answer, exchange, Type.RESPONSE)))
          .as("answer %s", answer)
          .isEqualTo(entries(filter(oneCopy, answer, exchange, Type.RESPONSE)));
    }
  }

  @Test
  void aPlainRequestIsCopiedOnceWithEveryHeaderKept() {
    HttpHeaders input = new HttpHeaders();
    input.add("Accept", "text/html");
    input.add("Cookie", "a=1");
    input.add("Cookie", "b=2");
    MockServerWebExchange exchange = exchangeWith(input);

    HttpHeaders out = OriginHeaders.requests(true, true, true).filter(input, exchange);

    assertThat(out).isNotSameAs(input);
    assertThat(entries(out)).isEqualTo(entries(input));
  }

  @Test
  void runsAfterTheTransferEncodingNormalizationAndBeforeTheScrubbing() {
    List<Object> filters =
        new ArrayList<>(
            List.of(
                OriginHeaders.requests(true, true, true),
                new TransferEncodingNormalizationHeadersFilter()));
    AnnotationAwareOrderComparator.sort(filters);

    assertThat(filters.get(0)).isInstanceOf(TransferEncodingNormalizationHeadersFilter.class);
    assertThat(OriginHeaders.answers().getOrder())
        .isEqualTo(new RemoveHopByHopHeadersFilter().getOrder())
        .isLessThan(org.springframework.core.Ordered.LOWEST_PRECEDENCE);
  }

  private static HttpHeaders randomHeaders(Random random) {
    HttpHeaders headers = new HttpHeaders();
    int count = random.nextInt(8);
    for (int h = 0; h < count; h++) {
      headers.add(
          NAMES.get(random.nextInt(NAMES.size())), VALUES.get(random.nextInt(VALUES.size())));
    }
    return headers;
  }

  private static MockServerWebExchange exchangeWith(HttpHeaders headers) {
    return MockServerWebExchange.from(MockServerHttpRequest.get("/products/1").headers(headers));
  }

  private static HttpHeaders filter(
      List<HttpHeadersFilter> filters, MockServerWebExchange exchange, Type type) {
    return filter(filters, exchange.getRequest().getHeaders(), exchange, type);
  }

  /** As the framework's routing filters apply them: sorted by order, those supporting the type. */
  private static HttpHeaders filter(
      List<HttpHeadersFilter> filters,
      HttpHeaders input,
      MockServerWebExchange exchange,
      Type type) {
    List<HttpHeadersFilter> sorted = new ArrayList<>(filters);
    AnnotationAwareOrderComparator.sort(sorted);
    return HttpHeadersFilter.filter(sorted, input, exchange, type);
  }

  private static List<Map.Entry<String, List<String>>> entries(HttpHeaders headers) {
    List<Map.Entry<String, List<String>>> entries = new ArrayList<>();
    headers.forEach((name, values) -> entries.add(Map.entry(name, List.copyOf(values))));
    return entries;
  }
}

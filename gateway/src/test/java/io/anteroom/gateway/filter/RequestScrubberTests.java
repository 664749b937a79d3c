package io.anteroom.gateway.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class RequestScrubberTests {

  private final RequestScrubber scrubber = new RequestScrubber("X-Pass");

  static final MockServerHttpRequest VISITOR =
      MockServerHttpRequest.get("/products/1")
          .header("Anteroom-Bypass", "secret")
          .header("ANTEROOM-Degraded", "x")
          .header("x-pass", "forged")
          .header("Accept", "text/html")
          .header(
              HttpHeaders.COOKIE,
              " a=1; anteroom_pass_shop=p ;b=2 ; ;",
              "anteroom_ticket_shop=t",
              "c=3")
          .build();

  /** The headers the origin gets, as the framework's routing filter asks for them. */
  private HttpHeaders toOrigin(MockServerWebExchange exchange) {
    return HttpHeadersFilter.filterRequest(List.of(scrubber), exchange);
  }

  @Test
  void anteroomHeadersAndCookiesAreRemovedAndTheRestKept() {
    MockServerWebExchange exchange = MockServerWebExchange.from(VISITOR);
    scrubber.forward(exchange, "pass-token");

    HttpHeaders headers = toOrigin(exchange);

    assertThat(headers.headerNames())
        .containsExactlyInAnyOrder("Accept", HttpHeaders.COOKIE, "X-Pass");
    assertThat(headers.get(HttpHeaders.COOKIE)).containsExactly("a=1; b=2; c=3");
    assertThat(headers.getFirst("X-Pass")).isEqualTo("pass-token");
    assertThat(exchange.getRequest().getHeaders().getFirst("x-pass"))
        .as("the visitor's request is left as it came")
        .isEqualTo("forged");
  }

  @Test
  void aDegradedForwardTellsTheOriginAndCarriesNoPass() {
    MockServerWebExchange exchange = MockServerWebExchange.from(VISITOR);
    scrubber.forwardDegraded(exchange);

    HttpHeaders headers = toOrigin(exchange);

    assertThat(headers.headerNames())
        .containsExactlyInAnyOrder("Accept", HttpHeaders.COOKIE, Forwarder.DEGRADED_HEADER);
    assertThat(headers.getFirst(Forwarder.DEGRADED_HEADER)).isEqualTo("line-unavailable");
  }

  @Test
  void aCopyHandedOnByAnEarlierHeaderFilterIsScrubbedInPlace() {
    MockServerWebExchange exchange = MockServerWebExchange.from(VISITOR);
    scrubber.forward(exchange, null);
    HttpHeaders copy = new HttpHeaders();
    copy.addAll(VISITOR.getHeaders());

    HttpHeaders headers = scrubber.filter(copy, exchange);

    assertThat(headers).isSameAs(copy);
    assertThat(headers.headerNames()).containsExactlyInAnyOrder("Accept", HttpHeaders.COOKIE);
  }

  @Test
  void aRequestTheWaitingRoomDidNotForwardPassesUntouched() {
    MockServerWebExchange exchange = MockServerWebExchange.from(VISITOR);

    assertThat(toOrigin(exchange)).isSameAs(VISITOR.getHeaders());
  }

  @Test
  void onlyAnteroomCookiesLeaveNoCookieHeader() {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(
            MockServerHttpRequest.get("/")
                .header(HttpHeaders.COOKIE, "anteroom_pass_shop=p; anteroom_proof_shop=q"));
    scrubber.forward(exchange, null);

    assertThat(toOrigin(exchange).containsHeader(HttpHeaders.COOKIE)).isFalse();
  }

  @Test
  void keptCookiesAreWhatSplittingAndTrimmingKeeps() {
    Random random = new Random(20261203);
    String alphabet = "ab=; \t\u000banteroom_";
    for (int i = 0; i < 5_000; i++) {
      List<String> headers = new ArrayList<>();
      for (int h = random.nextInt(3) + 1; h > 0; h--) {
        StringBuilder header = new StringBuilder();
        for (int c = random.nextInt(30); c > 0; c--) {
          header.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        if (random.nextBoolean()) {
          header.append("; anteroom_pass_x=1");
        }
        headers.add(header.toString());
      }

      assertThat(RequestScrubber.keptCookies(headers)).as("%s", headers).isEqualTo(split(headers));
    }
  }

  /** The obvious way, as a reference. */
  private static String split(List<String> headers) {
    List<String> kept = new ArrayList<>();
    for (String header : headers) {
      for (String pair : header.split(";")) {
        String trimmed = pair.trim();
        if (!trimmed.isEmpty() && !trimmed.startsWith("anteroom_")) {
          kept.add(trimmed);
        }
      }
    }
    return String.join("; ", kept);
  }
}

package io.anteroom.gateway.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

class RequestScrubberTests {

  private final RequestScrubber scrubber = new RequestScrubber("X-Pass");

  @Test
  void anteroomHeadersAndCookiesAreRemovedAndTheRestKept() {
    ServerHttpRequest request =
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

    HttpHeaders headers = scrubber.scrub(request, "pass-token").getHeaders();

    assertThat(headers.headerNames())
        .containsExactlyInAnyOrder("Accept", HttpHeaders.COOKIE, "X-Pass");
    assertThat(headers.get(HttpHeaders.COOKIE)).containsExactly("a=1; b=2; c=3");
    assertThat(headers.getFirst("X-Pass")).isEqualTo("pass-token");
  }

  @Test
  void onlyAnteroomCookiesLeaveNoCookieHeader() {
    ServerHttpRequest request =
        MockServerHttpRequest.get("/")
            .header(HttpHeaders.COOKIE, "anteroom_pass_shop=p; anteroom_proof_shop=q")
            .build();

    assertThat(scrubber.scrub(request, null).getHeaders().containsHeader(HttpHeaders.COOKIE))
        .isFalse();
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

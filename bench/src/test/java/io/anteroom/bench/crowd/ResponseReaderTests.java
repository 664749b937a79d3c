package io.anteroom.bench.crowd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseReaderTests {

  private static final String WAITING =
      "HTTP/1.1 200 OK\r\n"
          + "Content-Type: application/json\r\n"
          + "set-cookie: anteroom_ticket_shop=a.b.c; Path=/; HttpOnly; SameSite=Lax\r\n"
          + "Content-Length: 19\r\n"
          + "\r\n"
          + "{\"state\":\"waiting\"}";

  @Test
  void parseWhenContentLengthIsCompleteThenReadsStatusCookieAndBody() {
    ResponseReader.Response response = parse(WAITING);

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("{\"state\":\"waiting\"}");
    assertThat(response.setCookies())
        .containsExactly("anteroom_ticket_shop=a.b.c; Path=/; HttpOnly; SameSite=Lax");
    assertThat(response.consumed()).isEqualTo(WAITING.length());
    assertThat(response.keepAlive()).isTrue();
  }

  @Test
  void parseWhenBytesAreMissingThenAsksForMore() {
    for (int cut = 0; cut < WAITING.length(); cut++) {
      assertThat(parse(WAITING.substring(0, cut))).as("first %d bytes", cut).isNull();
    }
  }

  @Test
  void parseWhenChunkedThenJoinsTheChunks() {
    String chunked =
        "HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "4\r\n{\"st\r\n5;x=y\r\nate\"}\r\n0\r\n\r\n";

    ResponseReader.Response response = parse(chunked);

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.body()).isEqualTo("{\"state\"}");
    assertThat(response.keepAlive()).isFalse();
    assertThat(parse(chunked.substring(0, chunked.length() - 1))).isNull();
  }

  @Test
  void parseWhenNeitherLengthNorChunksThenFails() {
    assertThatThrownBy(() -> parse("HTTP/1.1 200 OK\r\n\r\nbody"))
        .isInstanceOf(IllegalStateException.class);
  }

  private static ResponseReader.Response parse(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return ResponseReader.parse(bytes, bytes.length);
  }
}

package io.anteroom.gateway.pass;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CookieScan} reads a cookie's values exactly as the server's own decoder does (Netty's
 * strict server decoder, which Reactor Netty uses for {@code getCookies()}), on random headers made
 * of the pieces a forger would try: the name in other cases, with spaces, quotes, commas, RFC 2965
 * attributes, characters the decoder refuses, empty values and several copies.
 */
class CookieScanTests {

  private static final String NAME = "anteroom_pass_shop";

  private static final List<String> PIECES =
      List.of(
          NAME + "=abc.def-ghi_jkl",
          NAME + "=",
          NAME + "=\"quoted.value\"",
          NAME + "=\"",
          NAME + "=\"\"",
          NAME + "=\"half",
          NAME + "=has space",
          NAME + "=back\\slash",
          NAME + "=a,b",
          NAME + "=ünicode",
          NAME,
          " " + NAME + "=spaced",
          NAME + " =x",
          "Anteroom_Pass_Shop=case",
          NAME + "x=longer",
          "anteroom_pass_sho=shorter",
          "$Version=1",
          "$Path=/",
          "$Version=\"1\"",
          "other=1",
          "other=\"2\"",
          "=novalue",
          "",
          " ",
          ";",
          ",",
          "\t",
          "=",
          "x=1, " + NAME + "=after-comma",
          NAME + "=v=w",
          "\"" + NAME + "\"=q");

  private static final List<String> JOINERS = List.of("; ", ";", ", ", " ", ";;", "");

  @Test
  void readsWhatTheServersDecoderReads() {
    Random random = new Random(4);
    for (int i = 0; i < 20_000; i++) {
      List<String> headers = new ArrayList<>();
      int count = 1 + random.nextInt(2);
      for (int h = 0; h < count; h++) {
        headers.add(randomHeader(random));
      }

      assertThat(CookieScan.values(headers, NAME)).as("%s", headers).isEqualTo(decoded(headers));
    }
  }

  @Test
  void readsNoValueWithoutHeaders() {
    assertThat(CookieScan.values(null, NAME)).isEmpty();
    assertThat(CookieScan.values(List.of(), NAME)).isEmpty();
  }

  @Test
  void readsEveryCopyInOrderAcrossHeaders() {
    List<String> headers = List.of("a=1; " + NAME + "=one", NAME + "=\"two\"; b=2; " + NAME + "=");

    assertThat(CookieScan.values(headers, NAME)).containsExactly("one", "two", "");
  }

  private static String randomHeader(Random random) {
    StringBuilder header = new StringBuilder();
    int pieces = random.nextInt(5);
    for (int p = 0; p < pieces; p++) {
      if (p > 0) {
        header.append(JOINERS.get(random.nextInt(JOINERS.size())));
      }
      header.append(PIECES.get(random.nextInt(PIECES.size())));
    }
    return header.toString();
  }

  private static List<String> decoded(List<String> headers) {
    List<String> values = new ArrayList<>();
    for (String header : headers) {
      for (Cookie cookie : ServerCookieDecoder.STRICT.decodeAll(header)) {
        if (cookie.name().equals(NAME)) {
          values.add(cookie.value());
        }
      }
    }
    return values;
  }
}

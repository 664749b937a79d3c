package io.anteroom.gateway.pass;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of one cookie in a request's {@code Cookie} headers, read as the server's own decoder
 * reads them (Netty's {@code ServerCookieDecoder.STRICT}, which Reactor Netty and so {@code
 * ServerHttpRequest.getCookies()} use): the same pairs, the same values in quotes unwrapped, and a
 * pair whose value has a character that decoder refuses left out, as it leaves it out. It reads the
 * one name asked for instead of decoding every cookie of the request into objects, which a
 * visitor's request, with a pass among the site's own cookies, would pay on every request.
 */
final class CookieScan {

  private static final String RFC2965_VERSION = "$Version";

  private CookieScan() {}

  /** The values of the cookies named {@code name} in {@code headers} (null for none), in order. */
  static List<String> values(List<String> headers, String name) {
    List<String> values = new ArrayList<>(1);
    if (headers != null) {
      for (String header : headers) {
        collect(header, name, values);
      }
    }
    return values;
  }

  private static void collect(String header, String name, List<String> values) {
    int length = header.length();
    int i = 0;
    if (header.regionMatches(true, 0, RFC2965_VERSION, 0, RFC2965_VERSION.length())) {
      // Netty's decoder goes on after the version's value (from the start when there is no ';');
      // the other attributes of that style start with '$' and so never match a cookie name here.
      i = header.indexOf(';') + 1;
    }
    while (true) {
      while (i < length && separator(header.charAt(i))) {
        i++;
      }
      if (i == length) {
        return;
      }
      int nameBegin = i;
      int nameEnd;
      int valueBegin = -1;
      int valueEnd = -1;
      while (true) {
        char c = header.charAt(i);
        if (c == ';') {
          nameEnd = i;
          break;
        }
        if (c == '=') {
          nameEnd = i;
          i++;
          valueBegin = i;
          int semicolon = header.indexOf(';', i);
          valueEnd = i = semicolon > 0 ? semicolon : length;
          break;
        }
        i++;
        if (i == length) {
          nameEnd = length;
          break;
        }
      }
      if (valueBegin >= 0
          && nameEnd - nameBegin == name.length()
          && header.startsWith(name, nameBegin)) {
        String value = value(header, valueBegin, valueEnd);
        if (value != null) {
          values.add(value);
        }
      }
    }
  }

  /** The value between quotes, if balanced, when every character is a cookie-octet; else null. */
  private static String value(String header, int begin, int end) {
    if (end > begin && header.charAt(begin) == '"') {
      if (end - begin < 2 || header.charAt(end - 1) != '"') {
        return null;
      }
      begin++;
      end--;
    }
    for (int i = begin; i < end; i++) {
      if (!cookieOctet(header.charAt(i))) {
        return null;
      }
    }
    return header.substring(begin, end);
  }

  /** RFC 6265: %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E. */
  private static boolean cookieOctet(char c) {
    return c == 0x21
        || (c >= 0x23 && c <= 0x2B)
        || (c >= 0x2D && c <= 0x3A)
        || (c >= 0x3C && c <= 0x5B)
        || (c >= 0x5D && c <= 0x7E);
  }

  private static boolean separator(char c) {
    return c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r' || c == ' ' || c == ','
        || c == ';';
  }
}

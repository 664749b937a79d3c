package io.anteroom.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One browser in a test: its own cookie jar, plain HTTP to the gateway. */
public final class Visitor {

  private static final Pattern NUMBER = Pattern.compile("\"%s\":(-?\\d+)");

  private final String base;
  private final CookieManager cookies;
  private final HttpClient http;

  public Visitor(int port) {
    this.base = "http://127.0.0.1:" + port;
    this.cookies = new CookieManager();
    this.http =
        HttpClient.newBuilder()
            .cookieHandler(cookies)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  private Visitor(String base, CookieManager cookies, HttpClient http) {
    this.base = base;
    this.cookies = cookies;
    this.http = http;
  }

  /**
   * The same browser, cookies and all, sent to the gateway on {@code port}, as a load balancer in
   * front of several gateways would.
   */
  public Visitor at(int port) {
    return new Visitor("http://127.0.0.1:" + port, cookies, http);
  }

  /** The gateway this visitor talks to, e.g. {@code http://127.0.0.1:8080}. */
  public String base() {
    return base;
  }

  public HttpResponse<String> get(String path, String accept) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept).GET());
  }

  public HttpResponse<String> json(String path) {
    return get(path, "application/json");
  }

  public HttpResponse<String> page(String path) {
    return get(path, "text/html,application/xhtml+xml,*/*;q=0.8");
  }

  public HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(
          request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The value of the cookie {@code name} in this visitor's jar, or null. */
  public String cookie(String name) {
    return cookies.getCookieStore().getCookies().stream()
        .filter(c -> c.getName().equals(name))
        .map(HttpCookie::getValue)
        .findFirst()
        .orElse(null);
  }

  /** Forgets every cookie, as a new browser profile on the same connection would. */
  public void clearCookies() {
    cookies.getCookieStore().removeAll();
  }

  /**
   * Puts a cookie into the jar as if the site had set it, replacing one the site set of that name.
   */
  public void setCookie(String name, String value) {
    URI site = URI.create(base);
    HttpCookie cookie = new HttpCookie(name, value);
    cookie.setPath("/");
    cookie.setVersion(0);
    // The domain the jar gives a cookie the site sets without one, so this one takes its place.
    cookie.setDomain(site.getHost());
    cookies.getCookieStore().add(site, cookie);
  }

  /**
   * Sends fresh visitors to {@code path} until one has to wait, so the line of that active queue is
   * not empty and everyone after waits too, whatever the token bucket holds.
   */
  public static void lineUpSomeone(int port, String path) {
    for (int i = 0; i < 20; i++) {
      if ("waiting".equals(text(new Visitor(port).json(path).body(), "state"))) {
        return;
      }
    }
    throw new AssertionError("nobody had to wait at " + path + "; is its queue on?");
  }

  /** A number field of a JSON body, or -1 when absent. */
  public static long field(String json, String name) {
    Matcher m = Pattern.compile(String.format(NUMBER.pattern(), name)).matcher(json);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /** A string field of a JSON body, or null when absent. */
  public static String text(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
    return m.find() ? m.group(1) : null;
  }
}

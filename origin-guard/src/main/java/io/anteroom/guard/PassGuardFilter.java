package io.anteroom.guard;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A servlet {@link Filter} that lets a request to a protected path through only with a valid pass
 * ({@link PassGuard}); an accepted {@link PassCheck} is in the request attribute {@link
 * PassGuard#CHECK_ATTRIBUTE}. Register it before the application's own filters.
 */
public final class PassGuardFilter implements Filter {

  private final PassGuard guard;

  public PassGuardFilter(PassGuard guard) {
    this.guard = guard;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request instanceof HttpServletRequest http)
        || !(response instanceof HttpServletResponse answer)) {
      chain.doFilter(request, response);
      return;
    }
    Verdict verdict = guard.decide(new ServletRequestView(http));
    if (verdict.allowed()) {
      if (verdict.check() != null) {
        http.setAttribute(PassGuard.CHECK_ATTRIBUTE, verdict.check());
      }
      chain.doFilter(request, response);
      return;
    }
    answer.setStatus(verdict.status());
    if (verdict.location() != null) {
      answer.setHeader("Location", verdict.location().toString());
    }
    answer.setHeader("Cache-Control", "no-store");
    answer.setContentType("text/plain;charset=utf-8");
    byte[] body = verdict.body().getBytes(StandardCharsets.UTF_8);
    answer.setContentLength(body.length);
    answer.getOutputStream().write(body);
  }

  private record ServletRequestView(HttpServletRequest request) implements PassGuard.Request {

    /**
     * The raw request URI that Spring MVC routes on, less the context path; null, which is refused,
     * when the container's context path does not begin it.
     */
    @Override
    public String path() {
      String uri = request.getRequestURI();
      String context = request.getContextPath();
      if (context == null || context.isEmpty()) {
        return uri;
      }
      return uri.startsWith(context) ? uri.substring(context.length()) : null;
    }

    @Override
    public String pathAndQuery() {
      String query = request.getQueryString();
      return query == null ? request.getRequestURI() : request.getRequestURI() + "?" + query;
    }

    @Override
    public String header(String name) {
      return request.getHeader(name);
    }

    @Override
    public String cookie(String name) {
      Cookie[] cookies = request.getCookies();
      String found = null;
      if (cookies != null) {
        for (Cookie cookie : cookies) {
          if (cookie.getName().equals(name)) {
            if (found != null) {
              return null;
            }
            found = cookie.getValue();
          }
        }
      }
      return found;
    }
  }
}

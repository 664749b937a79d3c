package io.anteroom.guard;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A WebFlux {@link WebFilter} that lets a request to a protected path through only with a valid
 * pass ({@link PassGuard}); an accepted {@link PassCheck} is in the exchange attribute {@link
 * PassGuard#CHECK_ATTRIBUTE}. Requests to other paths pass at once (a path spelled ambiguously is
 * refused, {@link PassGuard}); the check of a protected one runs on the bounded elastic scheduler,
 * since it fetches the gateway's key set when it is due or a pass names a kid not cached, and must
 * not block the event loop meanwhile.
 */
public final class PassGuardWebFilter implements WebFilter {

  private final PassGuard guard;

  public PassGuardWebFilter(PassGuard guard) {
    this.guard = guard;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    ReactiveRequestView request = new ReactiveRequestView(exchange.getRequest());
    if (!guard.protects(request.path())) {
      return chain.filter(exchange);
    }
    return Mono.fromSupplier(() -> guard.decide(request))
        .subscribeOn(Schedulers.boundedElastic())
        .flatMap(verdict -> answer(exchange, chain, verdict));
  }

  private static Mono<Void> answer(
      ServerWebExchange exchange, WebFilterChain chain, Verdict verdict) {
    if (verdict.allowed()) {
      if (verdict.check() != null) {
        exchange.getAttributes().put(PassGuard.CHECK_ATTRIBUTE, verdict.check());
      }
      return chain.filter(exchange);
    }
    return refuse(exchange.getResponse(), verdict);
  }

  private static Mono<Void> refuse(ServerHttpResponse response, Verdict verdict) {
    response.setStatusCode(HttpStatusCode.valueOf(verdict.status()));
    HttpHeaders headers = response.getHeaders();
    if (verdict.location() != null) {
      headers.setLocation(verdict.location());
    }
    headers.setCacheControl("no-store");
    headers.setContentType(new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8));
    DataBuffer body =
        response.bufferFactory().wrap(verdict.body().getBytes(StandardCharsets.UTF_8));
    return response.writeWith(Mono.just(body));
  }

  private record ReactiveRequestView(ServerHttpRequest request) implements PassGuard.Request {

    /** The raw path within the application, which WebFlux routes on. */
    @Override
    public String path() {
      return request.getPath().pathWithinApplication().value();
    }

    @Override
    public String pathAndQuery() {
      String query = request.getURI().getRawQuery();
      String path = request.getURI().getRawPath();
      return query == null ? path : path + "?" + query;
    }

    @Override
    public String header(String name) {
      return request.getHeaders().getFirst(name);
    }

    @Override
    public String cookie(String name) {
      List<HttpCookie> cookies = request.getCookies().get(name);
      return cookies == null || cookies.size() != 1 ? null : cookies.get(0).getValue();
    }
  }
}

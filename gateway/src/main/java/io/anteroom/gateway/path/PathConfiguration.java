package io.anteroom.gateway.path;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.cloud.gateway.handler.predicate.PredicateDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;
import org.springframework.cloud.gateway.route.RouteDefinitionLocator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/** Puts the {@link PathGuard} in front of every route. */
@Configuration(proxyBeanMethods = false)
class PathConfiguration {

  /** The name of the waiting room filter in route definitions ({@code - WaitingRoom=shop}). */
  static final String WAITING_ROOM = "WaitingRoom";

  /** The main server's port once it listens; the management server's is left out. */
  private final AtomicInteger visitorPort = new AtomicInteger(-1);

  @EventListener
  void serverStarted(WebServerInitializedEvent event) {
    if (event.getApplicationContext().getServerNamespace() == null) {
      visitorPort.set(event.getWebServer().getPort());
    }
  }

  @Bean
  PathGuard pathGuard(RouteDefinitionLocator routes, MeterRegistry meters) {
    return new PathGuard(
        routes
            .getRouteDefinitions()
            .filter(PathConfiguration::hasWaitingRoom)
            .flatMapIterable(PathConfiguration::pathPatterns)
            .collectList()
            .map(ProtectedPaths::new)
            .cache(),
        visitorPort::get,
        meters);
  }

  private static boolean hasWaitingRoom(RouteDefinition route) {
    return route.getFilters().stream().anyMatch(f -> WAITING_ROOM.equals(f.getName()));
  }

  /** The patterns of the route's Path predicates, in shortcut or expanded form. */
  private static List<String> pathPatterns(RouteDefinition route) {
    return route.getPredicates().stream()
        .filter(p -> "Path".equals(p.getName()))
        .map(PredicateDefinition::getArgs)
        .flatMap(
            args ->
                args.entrySet().stream()
                    .filter(e -> !e.getKey().equals("matchTrailingSlash"))
                    .flatMap(e -> Stream.of(e.getValue().split(","))))
        .map(String::trim)
        .filter(p -> !p.isEmpty())
        .toList();
  }
}

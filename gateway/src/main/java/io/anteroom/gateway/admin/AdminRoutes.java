package io.anteroom.gateway.admin;

import static io.anteroom.gateway.admin.Role.ADMIN;
import static io.anteroom.gateway.admin.Role.OPERATOR;
import static io.anteroom.gateway.admin.RoleGate.needs;
import static org.springframework.web.reactive.function.server.RequestPredicates.all;
import static org.springframework.web.reactive.function.server.RequestPredicates.path;

import io.anteroom.gateway.RedisGuard;
import io.lettuce.core.RedisException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The admin page and JSON API on the management port. Every API call needs {@code Authorization:
 * Bearer <token>} with one of the configured tokens (401 without or with a wrong one, 403 while no
 * token is configured) and answers JSON; errors are {@code {"error": "…"}}, invalid settings add
 * {@code "problems": [{"field", "message"}]}.
 *
 * <p>Each token has a {@link Role} ({@link RoleGate}): every GET needs {@code viewer}; every change
 * needs {@code operator}, except the failure policy (its PUT, or a settings PATCH that sets {@code
 * failure-policy}), which needs {@code admin}. Too low a role gets 403 {@code {"error", "required":
 * "operator", "role": "viewer"}}.
 *
 * <pre>
 * GET   /admin                    the admin page (no token needed)
 * GET   /admin/api/me             the token's {"name", "role"}
 * GET   /admin/api/audit?count=N  the last N (1-1000, default 100) changes on any gateway, newest
 *                                 first: {"entries": [{"id", "at", "who" (the token's name),
 *                                 "from", "what", "target", "old", "new"}, …]}
 * GET   /admin/api/rooms          {"rooms": [room, …]}
 * GET   /admin/api/rooms/R        room: {"room", "settings" (values in force), "overrides",
 *                                 "totals", "autopilot": {"on", "share", "ceiling", "rate", "per",
 *                                 "summary"}, "queues": [queue, …], "truncated"}
 * GET   /admin/api/rooms/R/settings    {"room", "configured", "overrides", "effective"}
 * PATCH /admin/api/rooms/R/settings    {"admit-per-second": 80, "mode": null, …} (null removes
 *                                      an override) → 200 as GET
 * GET   /admin/api/rooms/R/history     the last 15 minutes: {"room", "interval": "5s",
 *                                      "span": "15m", "admitPerSecond" (the room's rate now),
 *                                      "samples": [{"at" (ISO-8601), "waiting", "running",
 *                                      "finished", "admittedPerSecond" (since the sample before;
 *                                      null on the first)}, …] oldest first}
 * GET   /admin/api/rooms/R/autopilot   {"room", "on", "share" (of the configured rate, 1 when
 *                                      off or not decided in the last minute), "ceiling" (the
 *                                      configured rate), "rate" (in force), "per" ("room": its
 *                                      new-users-per-minute per second, "queue": each queue's
 *                                      admit-per-second), "summary", "reason", "decidedAt" (null
 *                                      when not decided), "settings" ({"autopilot", "autopilot-p95",
 *                                      "autopilot-errors", "autopilot-floor"}), "changes": [{"at",
 *                                      "share", "rate", "reason"}, …] the last 20, newest first};
 *                                      turned on and off by PATCH …/settings {"autopilot": "on"}
 * GET   /admin/api/rooms/R/arrivals?from=T&amp;to=T   the recorded arrivals (record-arrivals) as
 *                                      text/csv: a first line "# anteroom arrivals room=R
 *                                      sample=S from=T to=T", the header "at_ms,item", then one
 *                                      row per arrival in time order; from and to (ISO-8601,
 *                                      optional) bound the arrivals' times
 * GET   /admin/api/rooms/R/failure-policy  {"room", "failure-policy" (in force on this gateway),
 *                                          "local" (set on this gateway and not yet read back
 *                                          from Redis, or null)}
 * PUT   /admin/api/rooms/R/failure-policy  {"failure-policy": "open"|"closed"} → 200 as GET with
 *                                          "stored": "redis", or "local" when Redis could not be
 *                                          written (this gateway writes it once Redis answers);
 *                                          works while Redis is down
 * GET   /admin/api/rooms/R/message    {"room", "message" (the operator message, or null),
 *                                     "messages" ({language: text} for other languages),
 *                                     "default-language", "languages" (the room's page
 *                                     languages)}
 * PUT   /admin/api/rooms/R/message    {"message": "text"|null, "language": optional, one of the
 *                                     room's page languages} (at most 500 characters; null or
 *                                     blank removes it) → 200 as GET
 * GET   /admin/api/rooms/R/queues/I    queue: {"item", "queue", "active" (manual|auto|null),
 *                                      "mode", "state", "admit-per-second", "overrides",
 *                                      "waiting", "running", "finished", "enqueued", "admitted",
 *                                      "abandoned", "expired", "released",
 *                                      "measured-admit-per-second" (as measured in Redis while
 *                                      people wait, the figure waits are estimated from; 0 until
 *                                      known)}
 * GET   /admin/api/rooms/R/queues/I/settings   {"room", "item", "queue", "inherited",
 *                                              "overrides", "effective"}
 * PATCH /admin/api/rooms/R/queues/I/settings   as for the room, on top of the room's values
 * POST  /admin/api/rooms/R/queues/I/activate   on, as manual → 200 queue
 * POST  /admin/api/rooms/R/queues/I/deactivate off → 200 queue
 * POST  /admin/api/rooms/R/queues/I/pause      mode override paused → 200 queue
 * POST  /admin/api/rooms/R/queues/I/resume     mode override removed (set to queue when the
 *                                              room is paused) → 200 queue
 * POST  /admin/api/rooms/R/queues/I/release    {"visitor": "<id>"} → 200, or 404 when the
 *                                              visitor is neither waiting nor admitted
 * </pre>
 *
 * Rooms are the configured ones (404 otherwise). Queues listed are those that are on and those with
 * overrides of their own. An {@code {item}} is a listed item id (kept as it is, hashed ones too) or
 * a raw one (normalised as a request's item is). Bad input is a 400 (413 for a body over 16 KiB),
 * and every change is written to the audit log and trail ({@link Audit}). When Redis cannot be
 * reached the API answers 503, except for the failure policy.
 */
final class AdminRoutes {

  private static final Logger log = LoggerFactory.getLogger(AdminRoutes.class);

  private AdminRoutes() {}

  static RouterFunction<ServerResponse> routes(
      RedisGuard redis,
      AdminPage page,
      AdminAuthentication authentication,
      RoomListing listing,
      SettingsHandler settings,
      HistoryHandler history,
      AutopilotHandler autopilot,
      ArrivalsHandler arrivals,
      FailurePolicyHandler failurePolicy,
      MessageHandler message,
      QueueActions actions,
      AuditHandler audit) {
    String queue = "/rooms/{room}/queues/{item}";
    RouterFunction<ServerResponse> api =
        RouterFunctions.route()
            .GET("/me", request -> AdminResponses.ok(Operator.of(request).view()))
            .GET("/audit", audit::recent)
            .GET("/rooms", listing::rooms)
            .GET("/rooms/{room}", listing::room)
            .GET("/rooms/{room}/settings", settings::room)
            .PATCH("/rooms/{room}/settings", needs(OPERATOR, settings::patchRoom))
            .GET("/rooms/{room}/history", history::room)
            .GET("/rooms/{room}/autopilot", autopilot::room)
            .GET("/rooms/{room}/arrivals", arrivals::room)
            .GET("/rooms/{room}/failure-policy", failurePolicy::get)
            .PUT("/rooms/{room}/failure-policy", needs(ADMIN, failurePolicy::put))
            .GET("/rooms/{room}/message", message::get)
            .PUT("/rooms/{room}/message", needs(OPERATOR, message::put))
            .GET(queue, listing::queue)
            .GET(queue + "/settings", settings::queue)
            .PATCH(queue + "/settings", needs(OPERATOR, settings::patchQueue))
            .POST(queue + "/activate", needs(OPERATOR, actions::activate))
            .POST(queue + "/deactivate", needs(OPERATOR, actions::deactivate))
            .POST(queue + "/pause", needs(OPERATOR, actions::pause))
            .POST(queue + "/resume", needs(OPERATOR, actions::resume))
            .POST(queue + "/release", needs(OPERATOR, actions::release))
            .route(all(), request -> AdminResponses.error(HttpStatus.NOT_FOUND, "no such call"))
            .build()
            .filter((request, next) -> errors(redis, request, next))
            .filter(authentication);
    return RouterFunctions.route()
        .GET(AdminPage.PATH, page::page)
        .GET(AdminPage.PATH + "/", page::page)
        .GET(AdminPage.SCRIPT, page::script)
        .GET(AdminPage.CHART_SCRIPT, page::chartScript)
        .GET(AdminPage.STYLE, page::style)
        .nest(path("/admin/api"), () -> api)
        .build();
  }

  /** Turns refusals into their JSON errors, and failures into a 503 or 500 that says no more. */
  private static Mono<ServerResponse> errors(
      RedisGuard redis, ServerRequest request, HandlerFunction<ServerResponse> next) {
    return redis
        .handOff(Mono.defer(() -> next.handle(request)))
        .onErrorResume(
            error -> {
              if (error instanceof AdminException refused) {
                return AdminResponses.error(refused.status(), refused.getMessage());
              }
              if (error instanceof RedisException || error instanceof TimeoutException) {
                log.warn("Admin API: Redis failed on {}: {}", request.path(), error.toString());
                return AdminResponses.error(
                    HttpStatus.SERVICE_UNAVAILABLE, "Redis could not be reached; try again");
              }
              log.error("Admin API failed on {}", request.path(), error);
              return AdminResponses.error(HttpStatus.INTERNAL_SERVER_ERROR, "internal error");
            });
  }
}

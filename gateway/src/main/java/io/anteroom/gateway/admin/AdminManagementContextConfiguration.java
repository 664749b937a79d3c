package io.anteroom.gateway.admin;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.line.LineEvents;
import io.anteroom.gateway.room.FailurePolicySwitch;
import io.anteroom.gateway.room.ItemIds;
import io.anteroom.gateway.room.RoomMessages;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.status.WaitingPage;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.arrival.RedisArrivals;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.queue.shadow.ShadowLines;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The admin page and API ({@link AdminRoutes}) in the management server's own context, so they are
 * served on the management port (8081) and never on the visitors' port: beans of this child context
 * are invisible to the main context's handler mappings.
 *
 * <p>Named in {@code META-INF/spring/…ManagementContextConfiguration.imports}, which Boot reads
 * when it builds the management context. Deliberately not a {@code @ManagementContextConfiguration}
 * (that is a {@code @Configuration}, which the application's component scan would also load into
 * the main context, onto the visitors' port). Unannotated, Boot imports it into the child context
 * only, and, with {@link ConditionalOnManagementPort}, nowhere when management shares the visitors'
 * port: the admin API is then off.
 */
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
class AdminManagementContextConfiguration {

  private static final Logger log =
      LoggerFactory.getLogger(AdminManagementContextConfiguration.class);

  @Bean
  AdminAuthentication adminAuthentication(AdminProperties properties) {
    AdminAuthentication authentication = new AdminAuthentication(properties);
    if (authentication.enabled()) {
      log.info(
          "Admin API on at /admin/api on the management port; admin page at /admin; tokens: {}",
          String.join(", ", authentication.names()));
    } else {
      log.warn(
          "Admin API is off: no token is set. Set ANTEROOM_ADMIN_TOKEN (anteroom.admin.token),"
              + " or named tokens (anteroom.admin.tokens, anteroom.admin.token-dir), to turn it"
              + " on");
    }
    return authentication;
  }

  @Bean
  RouterFunction<ServerResponse> adminRoutes(
      AdminAuthentication authentication,
      RoomPolicies policies,
      SettingsStore settings,
      ActiveQueues active,
      QueueStore queues,
      RoomStore roomStore,
      ActiveQueueMirror activeMirror,
      RoomPolicyMirror policyMirror,
      RedisGuard redis,
      RoomHistory history,
      LineEvents events,
      FailurePolicySwitch flips,
      RoomMessages messages,
      WaitingPage pages,
      RedisPilot pilot,
      RedisArrivals arrivals,
      Clock clock,
      AnteroomProperties anteroom,
      DeferredRedisConnector connector,
      QueueKeys keys,
      ShadowLines shadow) {
    Map<String, ItemIds> ids = new LinkedHashMap<>();
    anteroom.roomOptions().forEach((room, options) -> ids.put(room, ItemIds.parse(room, options)));
    Rooms rooms = new Rooms(policies, settings, ids);
    RedisAuditTrail trail = new RedisAuditTrail(connector.commands(), keys, clock);
    Audit audit = new Audit(trail, clock);
    AutopilotHandler autopilot = new AutopilotHandler(rooms, pilot, clock);
    RoomListing listing =
        new RoomListing(policies, rooms, active, queues, roomStore, autopilot, shadow);
    return AdminRoutes.routes(
        redis,
        new AdminPage(),
        authentication,
        listing,
        new SettingsHandler(rooms, settings, policyMirror, audit),
        new HistoryHandler(rooms, history),
        autopilot,
        new ArrivalsHandler(rooms, arrivals, redis, clock),
        new FailurePolicyHandler(rooms, policyMirror, flips, audit),
        new MessageHandler(rooms, messages, pages, audit),
        new QueueActions(
            rooms, listing, active, queues, settings, activeMirror, policyMirror, audit, events),
        new AuditHandler(trail));
  }

  /** Keeps the main context's visitor endpoints off this port; see {@link ManagementPortGuard}. */
  @Bean
  ManagementPortGuard managementPortGuard(WebEndpointProperties endpoints) {
    String actuator = endpoints.getBasePath();
    return new ManagementPortGuard(List.of(actuator, AdminPage.PATH));
  }
}
